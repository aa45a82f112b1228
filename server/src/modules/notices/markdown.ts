import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

/**
 * Announcement Markdown to HTML that is safe to put into the page: `marked` renders (raw HTML in the
 * Markdown is escaped, not passed through), then `sanitize-html` keeps an allowlist of tags and
 * attributes. Links may only be http(s) or mailto and open in a new tab without the opener; no
 * images (they would load from anywhere and track readers), no styles, no scripts, no event handlers.
 */
const marked = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    // Raw HTML blocks and inline HTML are shown as text: operators write Markdown, not markup.
    html: ({ text }) => escapeHtml(text),
  },
});

const ALLOWED = {
  allowedTags: [
    'p',
    'br',
    'hr',
    'h1',
    'h2',
    'h3',
    'h4',
    'strong',
    'em',
    'del',
    'code',
    'pre',
    'blockquote',
    'ul',
    'ol',
    'li',
    'a',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'], th: ['align'], td: ['align'], ol: ['start'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer nofollow' }),
  },
} satisfies sanitizeHtml.IOptions;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function renderMarkdown(markdown: string): string {
  const html = marked.parse(markdown) as string;
  return sanitizeHtml(html, ALLOWED).trim();
}
