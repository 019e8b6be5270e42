import { Container } from "@/components/ui/container";

export default function NotFound() {
  return (
    <Container>
      <h1 className="text-3xl font-semibold tracking-tight">Page not found</h1>
      <p className="text-slate-600">This link is not valid, or what it pointed to no longer exists.</p>
    </Container>
  );
}
