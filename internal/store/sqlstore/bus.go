package sqlstore

import (
	"context"
	"sync"
)

// Bus fans messages out to the subscribers of a channel within the
// process. SQLite uses it alone (one node); PostgreSQL feeds it from
// LISTEN. A subscriber that does not keep up loses messages rather than
// stalling the others.
type Bus struct {
	mu   sync.Mutex
	subs map[string]map[chan string]struct{}
}

// NewBus returns an empty bus.
func NewBus() *Bus { return &Bus{subs: map[string]map[chan string]struct{}{}} }

// Subscribe delivers the channel's messages until ctx ends.
func (b *Bus) Subscribe(ctx context.Context, channel string) <-chan string {
	ch := make(chan string, 256)
	b.mu.Lock()
	if b.subs[channel] == nil {
		b.subs[channel] = map[chan string]struct{}{}
	}
	b.subs[channel][ch] = struct{}{}
	b.mu.Unlock()
	go func() {
		<-ctx.Done()
		b.mu.Lock()
		delete(b.subs[channel], ch)
		b.mu.Unlock()
		close(ch)
	}()
	return ch
}

// Channels lists the channels with subscribers.
func (b *Bus) Channels() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for c, s := range b.subs {
		if len(s) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// Deliver hands a message to the channel's subscribers.
func (b *Bus) Deliver(channel, payload string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for ch := range b.subs[channel] {
		select {
		case ch <- payload:
		default:
		}
	}
}
