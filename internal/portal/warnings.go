package portal

import (
	"context"
	"sync"
)

// Warnings collects what a request's writes let through with a warning
// (a policy in warn mode), for its answer: the API's Warning headers, the
// page's toast.
type Warnings struct {
	mu   sync.Mutex
	list []string
}

type warningsKey struct{}

// WithWarnings gives a request's context a collector of warnings.
func WithWarnings(ctx context.Context) (context.Context, *Warnings) {
	w := &Warnings{}
	return context.WithValue(ctx, warningsKey{}, w), w
}

// Warn adds warnings to the request's collector, if it has one.
func Warn(ctx context.Context, msgs ...string) {
	if w, ok := ctx.Value(warningsKey{}).(*Warnings); ok && len(msgs) > 0 {
		w.mu.Lock()
		w.list = append(w.list, msgs...)
		w.mu.Unlock()
	}
}

// WarningsFrom lists the warnings collected in ctx so far.
func WarningsFrom(ctx context.Context) []string {
	w, ok := ctx.Value(warningsKey{}).(*Warnings)
	if !ok {
		return nil
	}
	return w.List()
}

// List is what was collected so far.
func (w *Warnings) List() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.list...)
}
