/**
 * A guest's answer as readableAnswer (lib/question-answers.ts) gave it: the options of a
 * checkboxes answer as a list, any other answer as written (its own line breaks kept).
 */
export function AnswerValue({ lines, list }: { lines: string[]; list: boolean }) {
  if (list) {
    return (
      <ul className="list-disc pl-5">
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    );
  }
  return <span className="whitespace-pre-line break-words">{lines.join("\n")}</span>;
}
