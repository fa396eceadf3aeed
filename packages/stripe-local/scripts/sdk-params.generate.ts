/**
 * Writes src/core/sdk-params.json: for each endpoint stripe-local implements, every parameter the pinned
 * `stripe` SDK's TypeScript types accept, as a tree (`{ key: subtree }`, `1` for a scalar, `"*"` for an
 * object with free keys such as metadata). stripe-local uses it to tell a parameter Stripe knows but
 * stripe-local does not implement (`stripe_local_unsupported`) from one Stripe itself does not know
 * (`parameter_unknown`).
 *
 *   node --import tsx packages/stripe-local/scripts/sdk-params.generate.ts   (after upgrading `stripe`)
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export type ParamTree = { [key: string]: ParamTree | 1 | '*' };

const here = path.dirname(fileURLToPath(import.meta.url));
const entry = path.join(here, 'sdk-params.entry.ts');
const out = path.join(here, '..', 'src', 'core', 'sdk-params.json');
const MAX_DEPTH = 8;

const program = ts.createProgram([entry], {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  strict: true,
  skipLibCheck: true,
  noEmit: true,
});
const checker = program.getTypeChecker();
const source = program.getSourceFile(entry)!;
const endpoints = source.statements.find(
  (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'Endpoints',
)!;

/** The object types a parameter's type may be (unions split; arrays to their element; '' and null dropped). */
function objectParts(type: ts.Type): ts.Type[] {
  if (type.isUnion()) return type.types.flatMap(objectParts);
  if (checker.isArrayType(type)) return objectParts(checker.getTypeArguments(type as ts.TypeReference)[0]!);
  if (type.flags & ts.TypeFlags.Object) return [type];
  return [];
}

function tree(type: ts.Type, depth: number): ParamTree | 1 | '*' {
  const parts = objectParts(type);
  if (!parts.length || depth > MAX_DEPTH) return 1;
  if (parts.some((p) => checker.getIndexInfosOfType(p).length > 0)) return '*';
  const node: ParamTree = {};
  for (const part of parts)
    for (const prop of checker.getPropertiesOfType(part)) {
      const propType = checker.getTypeOfSymbolAtLocation(prop, source);
      const sub = tree(propType, depth + 1);
      const existing = node[prop.name];
      node[prop.name] =
        existing && typeof existing === 'object' && typeof sub === 'object' ? { ...existing, ...sub } : sub;
    }
  return node;
}

const result: Record<string, ParamTree> = {};
for (const member of endpoints.members) {
  if (!ts.isPropertySignature(member) || !member.type) continue;
  const name = (member.name as ts.StringLiteral).text;
  const t = tree(checker.getTypeFromTypeNode(member.type), 0);
  result[name] = typeof t === 'object' ? t : {};
}
writeFileSync(out, `${JSON.stringify(result, null, 1)}\n`);
console.log(`wrote ${path.relative(process.cwd(), out)}: ${Object.keys(result).length} endpoints`);
