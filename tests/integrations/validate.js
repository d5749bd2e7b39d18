// node validate.js SCHEMA.json FILE.yaml: FILE (YAML) against SCHEMA (JSON
// Schema, ajv); prints each error on one line, exits 1 when invalid.
const fs = require('fs');
const Ajv = require('ajv');
const YAML = require('yaml');
const [schemaPath, filePath] = process.argv.slice(2);
const schema = JSON.parse(fs.readFileSync(schemaPath, 'utf8'));
const doc = YAML.parse(fs.readFileSync(filePath, 'utf8'));
const ajv = new Ajv({allErrors: true, strict: false});
const validate = ajv.compile(schema);
if (!validate(doc)) {
  for (const e of validate.errors)
    console.log(`${filePath}: ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  process.exit(1);
}
console.log(`${filePath}: valid`);
