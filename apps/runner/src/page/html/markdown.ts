/**
 * The Markdown page's blocks as HTML. Only what `renderPage` writes is understood (headings,
 * pipe tables, paragraphs, dash lists, **bold**), so the HTML page shows the very same tables
 * and text as page.md without a second copy of their wording to keep in step.
 */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function inline(text: string): string {
  return escapeHtml(text)
    .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
    .replace(/`([^`]+)`/g, "<code>$1</code>");
}

const cells = (line: string): string[] => line.trim().replace(/^\|/, "").replace(/\|$/, "").split(" | ").map((c) => c.trim());

function tableHtml(lines: string[]): string {
  const [head, , ...body] = lines;
  const th = cells(head ?? "").map((c) => `<th>${inline(c)}</th>`).join("");
  const rows = body.map((l) => `<tr>${cells(l).map((c) => `<td>${inline(c)}</td>`).join("")}</tr>`).join("\n");
  return `<div class="table"><table><thead><tr>${th}</tr></thead><tbody>\n${rows}\n</tbody></table></div>`;
}

export function markdownToHtml(markdown: string): string {
  const out: string[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; ) {
    const line = lines[i] as string;
    if (line.trim() === "") {
      i++;
    } else if (line.startsWith("|")) {
      const block: string[] = [];
      while (i < lines.length && (lines[i] as string).startsWith("|")) block.push(lines[i++] as string);
      out.push(tableHtml(block));
    } else if (line.startsWith("- ")) {
      const items: string[] = [];
      while (i < lines.length && (lines[i] as string).startsWith("- ")) items.push(`<li>${inline((lines[i++] as string).slice(2))}</li>`);
      out.push(`<ul>\n${items.join("\n")}\n</ul>`);
    } else {
      const heading = /^(#{1,6}) (.*)$/.exec(line);
      if (heading) out.push(`<h${heading[1]!.length}>${inline(heading[2]!)}</h${heading[1]!.length}>`);
      else out.push(`<p>${inline(line)}</p>`);
      i++;
    }
  }
  return out.join("\n");
}
