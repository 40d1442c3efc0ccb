package idp

import (
	"html/template"
	"net/http"

	"github.com/a-h/templ"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// picker shows the demo users; login_hint=<user> on the authorize request
// skips it.
func (p *Provider) picker(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("authRequestID")
	req, ok := p.storage.pending(id)
	if !ok {
		http.Error(w, "This sign-in request is unknown or has expired. Start again from the application.", http.StatusBadRequest)
		return
	}
	if _, known := p.storage.users[req.loginHint]; known {
		p.finish(w, r, id, req.loginHint)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	// The page's one style block carries the response's CSP nonce.
	_ = pickerPage.Execute(w, map[string]any{"ID": id, "Users": p.users, "Client": req.clientID, "Nonce": templ.GetNonce(r.Context())})
}

func (p *Provider) choose(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	p.finish(w, r, r.PostForm.Get("id"), r.PostForm.Get("username"))
}

func (p *Provider) finish(w http.ResponseWriter, r *http.Request, id, username string) {
	if err := p.storage.complete(id, username); err != nil {
		http.Error(w, "Sign-in failed: "+err.Error(), http.StatusBadRequest)
		return
	}
	http.Redirect(w, r, op.AuthCallbackURL(p.op)(r.Context(), id), http.StatusFound)
}

var pickerPage = template.Must(template.New("picker").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · development identity provider</title>
<style nonce="{{.Nonce}}">
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;background:#f1f5f9;color:#0f172a;margin:0}
main{max-width:34rem;margin:3rem auto;background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;padding:2rem;box-shadow:0 1px 3px rgba(0,0,0,.06)}
h1{font-size:1.25rem;margin:0 0 .25rem} p{color:#475569;margin:0 0 1.5rem;font-size:.9rem}
ul{list-style:none;padding:0;margin:0;display:grid;gap:.5rem}
button{width:100%;text-align:left;background:#fff;border:1px solid #cbd5e1;border-radius:.5rem;padding:.75rem 1rem;cursor:pointer;font:inherit}
button:hover,button:focus-visible{border-color:#4f46e5;outline:2px solid #c7d2fe}
.name{font-weight:600}.who{color:#64748b;font-size:.8rem}.groups{font-family:ui-monospace,monospace;font-size:.75rem;color:#4338ca}
.badge{display:inline-block;font-size:.7rem;background:#fef3c7;color:#92400e;border-radius:9999px;padding:.1rem .5rem;margin-bottom:1rem}
</style></head>
<body><main>
<span class="badge">Development identity provider</span>
<h1>Sign in as a demo user</h1>
<p>Signing in to <strong>{{.Client}}</strong>. No passwords here: pick a user. Groups decide roles.</p>
<ul>{{range .Users}}
<li><form method="post" action="login"><input type="hidden" name="id" value="{{$.ID}}"><input type="hidden" name="username" value="{{.Username}}">
<button type="submit" data-user="{{.Username}}"><div class="name">{{.Name}} <span class="who">({{.Username}})</span></div>
<div class="who">{{.Note}}</div>
<div class="groups">{{if .Groups}}{{range $i, $g := .Groups}}{{if $i}}, {{end}}{{$g}}{{end}}{{else}}no groups{{end}}</div></button></form></li>{{end}}
</ul></main></body></html>`))
