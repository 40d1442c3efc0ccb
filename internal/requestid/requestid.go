// Package requestid carries a request's id through its context and into
// every log line written with that context.
package requestid

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
)

// Header is the HTTP header that carries the id both ways.
const Header = "X-Request-Id"

type key struct{}

// With returns a context carrying id.
func With(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, key{}, id)
}

// From returns the id carried by ctx, or "".
func From(ctx context.Context) string {
	id, _ := ctx.Value(key{}).(string)
	return id
}

// New returns a fresh random id.
func New() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Valid reports whether an id sent by a client may be reused: short and
// made of safe characters, so it cannot forge log lines or headers.
func Valid(id string) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// Handler adds the request id of the record's context to every record.
type Handler struct{ slog.Handler }

// Handle implements slog.Handler.
func (h Handler) Handle(ctx context.Context, r slog.Record) error {
	if id := From(ctx); id != "" {
		r.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, r)
}

// WithAttrs implements slog.Handler.
func (h Handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return Handler{h.Handler.WithAttrs(attrs)}
}

// WithGroup implements slog.Handler.
func (h Handler) WithGroup(name string) slog.Handler { return Handler{h.Handler.WithGroup(name)} }

// Client is where a request came from, for the audit trail.
type Client struct {
	IP        string
	UserAgent string
	// Door is the front door it came through: DoorPortal, DoorAPI or
	// DoorMCP.
	Door string
}

// The front doors.
const (
	DoorPortal = "portal"
	DoorAPI    = "api"
	DoorMCP    = "mcp"
)

type doorKey struct{}

// ThroughDoor marks a request one door makes of another in process (an
// assistant's tool call, answered by the API): the trail names the door
// the caller came through.
func ThroughDoor(ctx context.Context, door string) context.Context {
	return context.WithValue(ctx, doorKey{}, door)
}

// DoorOf is the door ThroughDoor marked ctx with, or "".
func DoorOf(ctx context.Context) string {
	d, _ := ctx.Value(doorKey{}).(string)
	return d
}

type clientKey struct{}

// WithClient returns a context carrying the request's client.
func WithClient(ctx context.Context, c Client) context.Context {
	return context.WithValue(ctx, clientKey{}, c)
}

// ClientFrom returns the client carried by ctx.
func ClientFrom(ctx context.Context) Client {
	c, _ := ctx.Value(clientKey{}).(Client)
	return c
}
