// Validates an OpenAPI document with swagger-parser (APIDevTools), a
// validator independent of kin-openapi: the schema of OpenAPI 3.0 and
// every $ref. Usage: node swagger-parser.cjs FILE
const SwaggerParser = require("@apidevtools/swagger-parser");
SwaggerParser.validate(process.argv[2]).then(
  () => console.log("valid"),
  (e) => { console.error(e.message); process.exit(1); });
