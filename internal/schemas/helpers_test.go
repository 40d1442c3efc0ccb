package schemas_test

import (
	"fmt"
	"strings"

	"github.com/edh-platform/rms-portal/internal/portal"
)

const avroV1 = `{"type":"record","name":"Reading","fields":[{"name":"id","type":"string"}]}`
const avroV2 = `{"type":"record","name":"Reading","fields":[{"name":"id","type":"string"},{"name":"value","type":"double","default":0}]}`

// problems is an error's problems, one per line of text.
func problems(err error) string {
	var parts []string
	for _, p := range portal.Problems(err) {
		parts = append(parts, fmt.Sprintf("%s %s: %s", p.Kind, p.Field, p.Message))
	}
	return strings.Join(parts, "\n")
}
