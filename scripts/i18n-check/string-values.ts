import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** A `const NAME = 'value'` declared at the top level of a source file. */
function constInFile(source: ts.SourceFile, name: string): string | null {
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (
        ts.isIdentifier(declaration.name) &&
        declaration.name.text === name &&
        declaration.initializer &&
        ts.isStringLiteralLike(declaration.initializer)
      ) {
        return declaration.initializer.text;
      }
    }
  }
  return null;
}

/** Where an imported identifier comes from (relative imports only). */
function importedFrom(source: ts.SourceFile, name: string): { file: string; exported: string } | null {
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements) {
      if (element.name.text !== name) continue;
      const specifier = statement.moduleSpecifier.text;
      if (!specifier.startsWith('.')) return null;
      const file = path.resolve(path.dirname(source.fileName), specifier);
      return { file, exported: element.propertyName?.text ?? name };
    }
  }
  return null;
}

/**
 * The string value of an argument: a literal, or an identifier bound to a
 * string const in the same file or in a relatively imported file.
 */
export function resolveStringArgument(argument: ts.Expression, source: ts.SourceFile): string | null {
  if (ts.isStringLiteralLike(argument)) return argument.text;
  if (ts.isArrayLiteralExpression(argument) && argument.elements[0]) {
    return resolveStringArgument(argument.elements[0], source);
  }
  if (!ts.isIdentifier(argument)) return null;
  const local = constInFile(source, argument.text);
  if (local !== null) return local;
  const origin = importedFrom(source, argument.text);
  if (!origin) return null;
  const candidates = [origin.file, `${origin.file}.ts`, `${origin.file}.tsx`, path.join(origin.file, 'index.ts')];
  const file = candidates.find((f) => existsSync(f) && /\.tsx?$/.test(f));
  if (!file) return null;
  const imported = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  return constInFile(imported, origin.exported);
}
