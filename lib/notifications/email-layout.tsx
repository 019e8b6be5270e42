import "server-only";
import { Body, Button, Container, Head, Html, Link, Preview, render, Section, Text } from "@react-email/components";
import { Fragment } from "react";

// The one layout every message is drawn with (booking, reminder and account mails alike), from
// one Outline, and its plain-text twin. A card at most 600 px wide on a page that shrinks with
// the phone; rows stacked (label over value) so nothing needs a second column at 320 px; the
// actions as buttons a thumb can hit. Light by default, with dark colours for the clients that
// honour prefers-color-scheme, and colours that stay readable in the clients that invert them.
// Rendered by React Email's render, which next.config.ts keeps external (serverExternalPackages):
// Next.js bundles server code for React Server Components, where react-dom/server is refused.

/** The product's colour (the dashboard's blue-600); a host has no colour of their own yet. */
export const PRODUCT_COLOR = "#2563eb";
export const PRODUCT_NAME = "Booking";

/** A message's parts, written once and rendered as plain text and as HTML. */
export type Outline = {
  /** The language it is written in (the HTML's lang). */
  lang: string;
  subject: string;
  greeting: string;
  lead: string;
  /** Paragraphs after the lead (account messages). */
  paragraphs?: string[];
  rows: [label: string, value: string][];
  /** The message's actions, drawn as buttons: the first filled, the others outlined. */
  links: [label: string, url: string][];
  /** Further links, drawn as links under the buttons (an .ics download). */
  more?: [label: string, url: string][];
  /** Paragraphs after the rows and buttons. */
  after?: string[];
  /** Who the message is from, in the card's head: the host (booking mails) or the product. */
  brand?: { name: string; color?: string };
};

const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

// Clients that honour prefers-color-scheme (Apple Mail, iOS, some Outlooks) get real dark
// colours; [data-ogsc] is Outlook.com's own dark mode. Gmail ignores <style> media queries and
// inverts by itself: light-on-brand buttons and #111 on white survive that.
const DARK_CSS = `
:root{color-scheme:light dark;supported-color-schemes:light dark}
@media (prefers-color-scheme: dark){
  .mail-page{background:#0b0b0f !important}
  .mail-card{background:#18181b !important;border-color:#3f3f46 !important}
  .mail-text{color:#f4f4f5 !important}
  .mail-muted{color:#a1a1aa !important}
  .mail-outline{background:#18181b !important;color:#f4f4f5 !important;border-color:#71717a !important}
  .mail-link{color:#93c5fd !important}
}
[data-ogsc] .mail-text{color:#f4f4f5 !important}
[data-ogsc] .mail-muted{color:#a1a1aa !important}
@media only screen and (max-width:480px){
  .mail-card{padding:20px 16px !important}
  .mail-button{display:block !important;text-align:center !important;margin:0 0 10px 0 !important}
}
`;

function Lines({ value }: { value: string }) {
  const lines = value.split("\n");
  return lines.map((line, i) => (
    <Fragment key={i}>
      {i > 0 && <br />}
      {line}
    </Fragment>
  ));
}

export function EmailLayout({ o }: { o: Outline }) {
  const color = o.brand?.color ?? PRODUCT_COLOR;
  const from = o.brand?.name ?? PRODUCT_NAME;
  return (
    <Html lang={o.lang} dir="ltr">
      <Head>
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="supported-color-schemes" content="light dark" />
        <title>{o.subject}</title>
        <style>{DARK_CSS}</style>
      </Head>
      <Preview>{o.lead}</Preview>
      <Body className="mail-page" style={{ margin: 0, padding: "24px 8px", background: "#f4f4f5", fontFamily: FONT }}>
        <Container style={{ maxWidth: 600, width: "100%" }}>
          <Section
            className="mail-card"
            style={{ background: "#ffffff", border: "1px solid #e4e4e7", borderTop: `4px solid ${color}`, borderRadius: 8, padding: "28px 32px" }}
          >
            <Text className="mail-muted" style={{ margin: "0 0 16px", fontSize: 14, fontWeight: 600, color: "#52525b", overflowWrap: "anywhere" }} data-testid="brand">
              {from}
            </Text>
            <Text className="mail-text" style={{ margin: "0 0 12px", fontSize: 16, lineHeight: "24px", color: "#111111", overflowWrap: "anywhere" }}>
              {o.greeting}
            </Text>
            <Text className="mail-text" style={{ margin: "0 0 20px", fontSize: 16, lineHeight: "24px", color: "#111111", overflowWrap: "anywhere" }}>
              {o.lead}
            </Text>
            {o.paragraphs?.map((p, i) => (
              <Text key={i} className="mail-text" style={{ margin: "0 0 16px", fontSize: 16, lineHeight: "24px", color: "#111111", overflowWrap: "anywhere" }}>
                {p}
              </Text>
            ))}
            {o.rows.map(([label, value], i) => (
              <Section key={i} style={{ margin: "0 0 12px" }}>
                <Text className="mail-muted" style={{ margin: 0, fontSize: 13, lineHeight: "18px", fontWeight: 600, color: "#52525b" }}>
                  {label}
                </Text>
                <Text className="mail-text" style={{ margin: 0, fontSize: 16, lineHeight: "24px", color: "#111111", overflowWrap: "anywhere" }}>
                  <Lines value={value} />
                </Text>
              </Section>
            ))}
            {o.links.length > 0 && (
              <Section style={{ margin: "20px 0 4px" }}>
                {o.links.map(([label, url], i) => (
                  <Button
                    key={url}
                    href={url}
                    className={i === 0 ? "mail-button" : "mail-button mail-outline"}
                    style={
                      i === 0
                        ? { background: color, color: "#ffffff", border: `1px solid ${color}`, borderRadius: 6, padding: "12px 18px", fontSize: 15, fontWeight: 600, margin: "0 8px 10px 0" }
                        : { background: "#ffffff", color: "#111111", border: "1px solid #a1a1aa", borderRadius: 6, padding: "12px 18px", fontSize: 15, fontWeight: 600, margin: "0 8px 10px 0" }
                    }
                  >
                    {label}
                  </Button>
                ))}
              </Section>
            )}
            {o.more?.map(([label, url]) => (
              <Text key={url} style={{ margin: "4px 0", fontSize: 15, lineHeight: "22px" }}>
                <Link className="mail-link" href={url} style={{ color: "#1d4ed8", textDecoration: "underline" }}>
                  {label}
                </Link>
              </Text>
            ))}
            {o.after?.map((p, i) => (
              <Text key={i} className="mail-text" style={{ margin: "16px 0 0", fontSize: 15, lineHeight: "22px", color: "#111111", overflowWrap: "anywhere" }}>
                {p}
              </Text>
            ))}
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

export function asHtml(o: Outline): Promise<string> {
  return render(<EmailLayout o={o} />);
}

/**
 * The plain-text part: "Label: value" with one space, however long another row's label is. A
 * value of several lines (a long answer, checked options) keeps its own column, its label's width.
 */
export function asText(o: Outline): string {
  const links = [...o.links, ...(o.more ?? [])];
  // French puts a narrow no-break space before the colon.
  const colon = o.lang === "fr" ? "\u202f:" : ":";
  const row = ([label, value]: [string, string]) => {
    const head = `${label}${colon} `;
    return `${head}${value.split("\n").join(`\n${" ".repeat(head.length)}`)}`;
  };
  // Blocks, one blank line between them.
  const blocks = [
    o.greeting,
    o.lead,
    ...(o.paragraphs ?? []),
    o.rows.map(row).join("\n"),
    links.map(([label, url]) => `${label}${colon} ${url}`).join("\n"),
    ...(o.after ?? []),
  ];
  return `${blocks.filter((b) => b !== "").join("\n\n")}\n`;
}
