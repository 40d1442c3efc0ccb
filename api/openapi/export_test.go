package openapi

// DocumentForTest is the API document as the portal serves it, for the
// tests that check it.
func DocumentForTest() []byte {
	doc, err := ForDeployment(Deployment{Server: "https://portal.example.com/api/v1", Audience: "api://portal-test",
		ClientID: "portal-docs", AuthorizationURL: "https://idp.example.com/authorize", TokenURL: "https://idp.example.com/token"})
	if err != nil {
		panic(err)
	}
	return doc
}

// CommittedDocument is the API document as committed.
func CommittedDocument() []byte { return []byte(committed) }
