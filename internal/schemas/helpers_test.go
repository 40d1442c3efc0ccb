package schemas_test

const avroV1 = `{"type":"record","name":"Reading","fields":[{"name":"id","type":"string"}]}`
const avroV2 = `{"type":"record","name":"Reading","fields":[{"name":"id","type":"string"},{"name":"value","type":"double","default":0}]}`
