package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/edh-platform/rms-portal/client"
	"github.com/edh-platform/rms-portal/internal/version"
)

// printError writes a refusal's messages with their fields.
func printError(w io.Writer, e *client.Error) {
	fmt.Fprintf(w, "Error: %d %s\n", e.Code, e.Status)
	for _, it := range e.Errors {
		field := ""
		if it.Field != "" {
			field = " " + it.Field
		}
		fmt.Fprintf(w, "  %s%s: %s\n", it.Type, field, it.Message)
	}
}

// api is the portal's typed client, signed in as o's credentials say.
// What a write was let through with (a policy in warn mode) is printed as
// kubectl prints admission warnings.
func (o *options) api(ctx context.Context) (*client.Client, error) {
	hc, err := o.httpClient(ctx)
	if err != nil {
		return nil, err
	}
	warned := *hc
	warned.Transport = warnings{base: hc.Transport, out: o.stderr}
	c := client.New(o.serverKey(), &warned)
	c.UserAgent = "portalctl/" + version.Get().Version
	return c, nil
}

// warnings prints the Warning headers of every answer.
type warnings struct {
	base http.RoundTripper
	out  io.Writer
}

func (w warnings) RoundTrip(r *http.Request) (*http.Response, error) {
	base := w.base
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(r)
	if err == nil {
		for _, text := range (client.Meta{Header: resp.Header}).Warnings() {
			fmt.Fprintln(w.out, "Warning:", text)
		}
	}
	return resp, err
}

// printJSON writes an answer as the portal wrote it, and a blank line.
func (o *options) printJSON(v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = o.stdout.Write(append(raw, '\n', '\n'))
	return err
}
