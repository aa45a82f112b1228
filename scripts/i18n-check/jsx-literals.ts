import ts from 'typescript';

/** JSX attributes whose value a person reads. */
export const TEXT_ATTRIBUTES = new Set([
  'title',
  'placeholder',
  'aria-label',
  'alt',
  'label',
  'confirmText',
  'cancelText',
  'description',
]);

/** Letters of any script (Latin, CJK, ...): text a person reads. */
const READABLE = /\p{L}/u;
/** `// i18n-ignore` (or `{/* i18n-ignore *\/}`) on the line or the line before exempts a literal. */
const IGNORE_MARK = 'i18n-ignore';

export interface Finding {
  line: number;
  text: string;
}

function isIgnored(source: ts.SourceFile, node: ts.Node): boolean {
  const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
  const lines = source.text.split('\n');
  return [lines[line], lines[line - 1]].some((l) => l?.includes(IGNORE_MARK));
}

function literalText(expression: ts.Expression | undefined): string | null {
  if (!expression) return null;
  if (ts.isStringLiteralLike(expression)) return expression.text;
  if (ts.isTemplateExpression(expression))
    return expression.head.text + expression.templateSpans.map((s) => s.literal.text).join('');
  if (ts.isParenthesizedExpression(expression)) return literalText(expression.expression);
  if (ts.isConditionalExpression(expression)) {
    return [literalText(expression.whenTrue), literalText(expression.whenFalse)].filter(Boolean).join(' ') || null;
  }
  return null;
}

/** Untranslated user-visible text in one .tsx source: JSX text and literal text attributes. */
export function findUntranslatedText(fileName: string, text: string): Finding[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const findings: Finding[] = [];
  const report = (node: ts.Node, value: string) => {
    if (!READABLE.test(value) || isIgnored(source, node)) return;
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    findings.push({ line, text: value.trim().replace(/\s+/g, ' ') });
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) {
      report(node, node.text);
    } else if (
      ts.isJsxExpression(node) &&
      node.parent &&
      (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))
    ) {
      const value = literalText(node.expression);
      if (value !== null) report(node, value);
    } else if (ts.isJsxAttribute(node) && TEXT_ATTRIBUTES.has(node.name.getText(source))) {
      const init = node.initializer;
      let value: string | null = null;
      if (init && ts.isStringLiteral(init)) value = init.text;
      else if (init && ts.isJsxExpression(init)) value = literalText(init.expression);
      if (value !== null) report(node, value);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return findings;
}
