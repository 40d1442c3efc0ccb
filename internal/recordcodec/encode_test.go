package recordcodec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/schema"
)

// TestSchemaRefsReadNoFiles: a JSON Schema whose $ref names a file (or a
// URL) is not followed when values are written with it: the JSON Schema
// library would otherwise read the portal's own files.
func TestSchemaRefsReadNoFiles(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret.json")
	if err := os.WriteFile(secret, []byte(`{"type": "string"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"file://" + secret, "http://169.254.169.254/latest/meta-data"} {
		_, err := Encoder(schema.SchemaVersion{Subject: "s", Version: 1, Type: schema.SchemaJSON,
			Schema: `{"type":"object","properties":{"a":{"$ref":"` + ref + `"}}}`})
		if ps := portal.Problems(err); len(ps) != 1 || ps[0].Field != "subject" || !strings.Contains(ps[0].Message, "does not load referenced documents") {
			t.Errorf("%s: %v", ref, err)
		}
	}
}
