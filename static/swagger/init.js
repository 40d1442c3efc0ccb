// Starts Swagger UI on the portal's OpenAPI document, with sign-in through
// the identity provider (Authorization Code + PKCE). Settings come from the
// page's data attributes so that no inline script is needed.
(function () {
  var el = document.getElementById("swagger-ui");
  var ui = SwaggerUIBundle({
    url: el.dataset.spec,
    dom_id: "#swagger-ui",
    deepLinking: true,
    persistAuthorization: false,
    oauth2RedirectUrl: el.dataset.redirect,
    displayRequestDuration: true,
  });
  ui.initOAuth({
    clientId: el.dataset.clientId,
    usePkceWithAuthorizationCodeGrant: true,
    scopes: el.dataset.scopes.split(" "),
  });
})();
