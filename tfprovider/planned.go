package tfprovider

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/wire"
)

// maxDocument is the most items the portal plans at once.
const maxDocument = 500

// plannedDocs are the changes this plan made so far, per unit and stage.
// Terraform plans each resource alone; the portal's budgets and policies
// judge a plan whole (the eleventh topic is the one over a budget of
// ten). So each resource's check asks the portal's plan of every change
// planned before it in the unit and stage, itself last: the change that
// takes the unit over a limit is the one refused.
type plannedDocs struct {
	mu   sync.Mutex
	docs map[[2]string]*plannedDoc
}

type plannedDoc struct {
	order []string
	items map[string]wire.DocumentItem
}

func newPlannedDocs() *plannedDocs { return &plannedDocs{docs: map[[2]string]*plannedDoc{}} }

// with adds item to its unit's planned changes, and returns the document
// to plan (the latest changes, item last) and item's index in it.
func (p *plannedDocs) with(bu, stage string, item wire.DocumentItem) (wire.ResourceDocument, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	d, ok := p.docs[[2]string{bu, stage}]
	if !ok {
		d = &plannedDoc{items: map[string]wire.DocumentItem{}}
		p.docs[[2]string{bu, stage}] = d
	}
	key := item.Kind + "/" + item.Metadata.Name
	if _, seen := d.items[key]; seen {
		for i, k := range d.order {
			if k == key {
				d.order = append(d.order[:i], d.order[i+1:]...)
				break
			}
		}
	}
	d.items[key] = item
	d.order = append(d.order, key)
	keys := d.order
	if len(keys) > maxDocument {
		keys = keys[len(keys)-maxDocument:]
	}
	doc := wire.ResourceDocument{Items: make([]wire.DocumentItem, len(keys))}
	for i, k := range keys {
		doc.Items[i] = d.items[k]
	}
	return doc, len(keys) - 1
}

// retryRate waits out the portal's refusals for the rate (429 with
// Retry-After), a few times: a plan of many resources asks in parallel.
// A 429 is refused before anything happens, so any request may be sent
// again.
type retryRate struct {
	base http.RoundTripper
}

func (t retryRate) RoundTrip(req *http.Request) (*http.Response, error) {
	for attempt := 0; ; attempt++ {
		resp, err := t.base.RoundTrip(req)
		if err != nil || resp.StatusCode != http.StatusTooManyRequests || attempt == 4 || (req.Body != nil && req.GetBody == nil) {
			return resp, err
		}
		wait, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		resp.Body.Close()
		pause := time.Duration(min(max(wait, 1), 30)) * time.Second
		timer := time.NewTimer(pause)
		select {
		case <-req.Context().Done():
			timer.Stop()
			return nil, req.Context().Err()
		case <-timer.C:
		}
		if req.GetBody != nil {
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			req = req.Clone(req.Context())
			req.Body = body
		}
	}
}
