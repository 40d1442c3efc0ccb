package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/edh-platform/rms-portal/internal/wire"
)

// apiError is a portal error record.
type apiError wire.ErrorRecord

func (e *apiError) Error() string { return fmt.Sprintf("%d %s", e.Code, e.Status) }

// print writes the record's messages with their fields.
func (e *apiError) print(w io.Writer) {
	fmt.Fprintf(w, "Error: %d %s\n", e.Code, e.Status)
	for _, it := range e.Errors {
		field := ""
		if it.Field != "" {
			field = " " + it.Field
		}
		fmt.Fprintf(w, "  %s%s: %s\n", it.Type, field, it.Message)
	}
}

// call sends a request to the API and returns the body of a 2xx answer;
// other answers become an *apiError.
func (o *options) call(ctx context.Context, method, path string, body []byte, header map[string]string) ([]byte, http.Header, error) {
	client, err := o.httpClient(ctx)
	if err != nil {
		return nil, nil, err
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, o.serverKey()+"/api/v1"+path, rd)
	if err != nil {
		return nil, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, nil, err
	}
	// What a write was let through with (a policy in warn mode), as
	// kubectl shows admission warnings.
	for _, w := range resp.Header.Values("Warning") {
		if text, ok := strings.CutPrefix(w, `299 - "`); ok {
			w = strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(strings.TrimSuffix(text, `"`))
		}
		fmt.Fprintln(o.stderr, "Warning:", w)
	}
	if resp.StatusCode >= 300 {
		e := &apiError{Code: resp.StatusCode, Status: http.StatusText(resp.StatusCode)}
		if json.Unmarshal(out, e) != nil || len(e.Errors) == 0 {
			return nil, nil, fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, strings.TrimSpace(string(out)))
		}
		return nil, nil, e
	}
	return out, resp.Header, nil
}
