import ts from 'typescript';
import { resolveStringArgument } from './string-values.ts';

export interface TranslationCall {
  line: number;
  namespace: string;
  key: string;
}

/**
 * Literal `t('key')` calls whose namespace is known: `t` is bound by
 * `const { t } = useTranslation(ns)` (or `{ t: alias }`) with `ns` a literal
 * or a string const. `ns:key` keys name their namespace explicitly.
 */
export function findTranslationCalls(fileName: string, text: string): TranslationCall[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const bindings = new Map<string, string>();
  const collectBindings = (node: ts.Node) => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isObjectBindingPattern(node.name) &&
      node.initializer &&
      ts.isCallExpression(node.initializer) &&
      ts.isIdentifier(node.initializer.expression) &&
      node.initializer.expression.text === 'useTranslation' &&
      node.initializer.arguments[0]
    ) {
      const ns = resolveStringArgument(node.initializer.arguments[0], source);
      for (const element of node.name.elements) {
        const property = element.propertyName?.getText(source) ?? element.name.getText(source);
        if (ns && property === 't' && ts.isIdentifier(element.name)) bindings.set(element.name.text, ns);
      }
    }
    ts.forEachChild(node, collectBindings);
  };
  collectBindings(source);

  const calls: TranslationCall[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && bindings.has(node.expression.text)) {
      const first = node.arguments[0];
      if (first && ts.isStringLiteralLike(first)) {
        const fileNs = bindings.get(node.expression.text) ?? '';
        const separator = first.text.indexOf(':');
        const [namespace, key] =
          separator > 0 ? [first.text.slice(0, separator), first.text.slice(separator + 1)] : [fileNs, first.text];
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        calls.push({ line, namespace, key });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return calls;
}
