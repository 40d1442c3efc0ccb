package api

import "github.com/edh-platform/rms-portal/api/openapi"

// DocumentForTest is the API document as the portal serves it, for the
// tests that check answers against it.
func DocumentForTest() []byte {
	doc, err := openapi.ForDeployment(openapi.Deployment{Server: "https://portal.example.com/api/v1", Audience: "api://portal-test",
		ClientID: "portal-docs", AuthorizationURL: "https://idp.example.com/authorize", TokenURL: "https://idp.example.com/token"})
	if err != nil {
		panic(err)
	}
	return doc
}
