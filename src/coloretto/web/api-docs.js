// The browsable description of the HTTP API at /docs: Swagger UI (served from the
// swagger-ui-py package under /docs/assets) reading the server's /openapi.json. A file
// of its own because the server's Content-Security-Policy allows no inline script.
window.addEventListener("load", () => {
  window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true });
});
