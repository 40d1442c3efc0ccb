package idp

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"

	jose "github.com/go-jose/go-jose/v4"
)

// idTokensForClients gives every ID token issued at the token endpoint the
// client alone as audience, as Entra ID does: an ID token says who signed
// in to the client; it is not a token for the API, and carrying the API's
// audience would let it pass as one. The op library puts the request's
// audience (client and API) in both tokens, so the ID token is re-signed.
func (p *Provider) idTokensForClients(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		if rec.Code == http.StatusOK {
			if fixed, err := p.reissueIDToken(body); err == nil {
				body = fixed
			}
		}
		maps.Copy(w.Header(), rec.Header())
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.Code)
		_, _ = w.Write(body)
	})
}

func (p *Provider) reissueIDToken(body []byte) ([]byte, error) {
	var resp map[string]any
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, err
	}
	raw, _ := resp["id_token"].(string)
	if raw == "" {
		return body, nil
	}
	tok, err := jose.ParseSigned(raw, []jose.SignatureAlgorithm{jose.RS256})
	if err != nil {
		return nil, err
	}
	payload, err := tok.Verify(&p.storage.key.key.PublicKey)
	if err != nil {
		return nil, err
	}
	var claims map[string]any
	if err := json.Unmarshal(payload, &claims); err != nil {
		return nil, err
	}
	client, _ := claims["azp"].(string)
	if client == "" {
		if aud, ok := claims["aud"].([]any); ok && len(aud) > 0 {
			client, _ = aud[0].(string)
		}
	}
	claims["aud"] = client
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: p.storage.key.key},
		(&jose.SignerOptions{}).WithType("JWT").WithHeader("kid", p.storage.key.id))
	if err != nil {
		return nil, err
	}
	data, _ := json.Marshal(claims)
	signed, err := signer.Sign(data)
	if err != nil {
		return nil, err
	}
	compact, err := signed.CompactSerialize()
	if err != nil {
		return nil, err
	}
	resp["id_token"] = compact
	var out bytes.Buffer
	err = json.NewEncoder(&out).Encode(resp)
	return out.Bytes(), err
}
