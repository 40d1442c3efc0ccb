package api

// DocumentForTest is the API document as the portal serves it, for the
// tests that check answers against it.
func DocumentForTest() []byte {
	return render(openAPITemplate, map[string]string{"SERVER_URL": "https://portal.example.com/api/v1", "API_AUDIENCE": "api://portal",
		"API_SCOPE": "api://portal/.default", "AUTHORIZATION_URL": "https://idp.example.com/authorize", "TOKEN_URL": "https://idp.example.com/token",
		"CLIENT_ID": "portal-docs", "TOPIC_SETTINGS": settingsMarkdown()})
}
