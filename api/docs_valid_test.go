package api

import (
	"context"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// TestOpenAPIDocumentIsValid: the document users' client generators read
// is valid OpenAPI 3.0 (kin-openapi loads and validates it), rendered as
// the portal serves it. A description with an unquoted ": " once made
// keys no schema has.
func TestOpenAPIDocumentIsValid(t *testing.T) {
	doc := render(openAPITemplate, map[string]string{"SERVER_URL": "https://portal.example.com/api/v1", "API_AUDIENCE": "api://portal",
		"API_SCOPE": "api://portal/.default", "AUTHORIZATION_URL": "https://idp.example.com/authorize", "TOKEN_URL": "https://idp.example.com/token",
		"CLIENT_ID": "portal-docs", "TOPIC_SETTINGS": settingsMarkdown()})
	loader := openapi3.NewLoader()
	spec, err := loader.LoadFromData(doc)
	if err != nil {
		t.Fatalf("loading: %v", err)
	}
	if err := spec.Validate(context.Background()); err != nil {
		t.Fatalf("validating: %v", err)
	}
}
