package schemareg

import (
	"context"
	"fmt"
	"io"
	"net/http"
)

// CheckCredentials signs in to the registry with key and secret, as a
// client of it would (GET /schemas/types, which any signed-in key may
// read): nil when the registry took the key. A 403 also means it did (the
// key's account lacks a role, which is not the key's readiness); a 401 is
// a key not spread yet, or a wrong secret.
func (r *Registry) CheckCredentials(ctx context.Context, key, secret string) error {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.base+"/schemas/types", nil)
	if err != nil {
		return err
	}
	req.SetBasicAuth(key, secret)
	req.Header.Set("Accept", "application/vnd.schemaregistry.v1+json, application/json")
	resp, err := r.http.Do(req)
	if err != nil {
		return fmt.Errorf("signing in to the registry with key %s: %w", key, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	switch resp.StatusCode {
	case http.StatusOK, http.StatusForbidden:
		return nil
	default:
		return fmt.Errorf("signing in to the registry with key %s: HTTP %d", key, resp.StatusCode)
	}
}
