package assistants

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edh-platform/rms-portal/api"
)

// prompt is one of the door's prompts: the API answer it starts from,
// and what it asks the assistant to do with it.
type prompt struct {
	name, title, about string
	// subject is the argument naming what the prompt is about, besides
	// bu and stage; path its API path from the three.
	subject, subjectAbout string
	path                  func(bu, stage, subject string) string
	ask                   string
}

var prompts = []prompt{
	{name: "consumer_group_lag", title: "Why is this consumer group lagging?",
		about:   "Explains a consumer group's lag from the portal's lag in time: how old its oldest unread record is per partition, and whether it catches up.",
		subject: "group", subjectAbout: "The consumer group's id (full name).",
		path: func(bu, stage, g string) string {
			return "/" + bu + "/" + stage + "/consumer-group/" + url.PathEscape(g)
		},
		ask: "Explain to me why this consumer group is lagging, from the portal's answer below: which partitions are furthest behind in time, whether the group " +
			"catches up at its recent pace or falls behind, whether it has members at all, and what I could do (more consumers up to the partitions' " +
			"number, a look at a slow member, a reset of offsets if the data may be skipped). Say what the numbers show, not more."},
	{name: "topic_delete_impact", title: "What would deleting this topic break?",
		about:   "Lists what depends on a topic before it is deleted: consumer groups by unit, other units' grants, connectors, subjects.",
		subject: "topic", subjectAbout: "The topic's identifier or full name.",
		path: func(bu, stage, t string) string {
			return "/" + bu + "/" + stage + "/topic/" + url.PathEscape(t) + "/impact"
		},
		ask: "Tell me what deleting this topic would break, from the portal's impact below: each live dependant (who it belongs to and why it breaks), " +
			"what goes with the topic, and who I should tell first. A delete with live dependants needs an Admin, the topic's name and a reason; " +
			"the other units' grants on it end with it."},
}

// addPrompts adds the door's prompts to s.
func (d *Door) addPrompts(s *mcp.Server) {
	for _, p := range prompts {
		s.AddPrompt(&mcp.Prompt{Name: p.name, Title: p.title, Description: p.about, Arguments: []*mcp.PromptArgument{
			{Name: "bu", Title: "Business unit", Description: "The business unit's id.", Required: true},
			{Name: "stage", Title: "Stage", Description: "The stage's name (dev, qas, run).", Required: true},
			{Name: p.subject, Description: p.subjectAbout, Required: true},
		}}, d.promptHandler(p))
	}
}

// promptHandler reads the prompt's API answer as the caller, and asks the
// assistant about it.
func (d *Door) promptHandler(p prompt) mcp.PromptHandler {
	return func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		c, ok := callerOf(req.Extra)
		if !ok {
			return nil, fmt.Errorf("sign-in required")
		}
		args := req.Params.Arguments
		for _, a := range []string{"bu", "stage", p.subject} {
			if args[a] == "" {
				return nil, fmt.Errorf("the prompt %s needs %s", p.name, a)
			}
		}
		a := d.serve(ctx, c, http.MethodGet, api.Base+p.path(url.PathEscape(args["bu"]), url.PathEscape(args["stage"]), args[p.subject]), nil, nil)
		var v any
		_ = json.Unmarshal(a.body, &v)
		if a.status >= 400 {
			return nil, fmt.Errorf("%s", refusalText(a.status, v))
		}
		pretty, _ := json.MarshalIndent(v, "", "  ")
		text := fmt.Sprintf("%s\n\n%s %s in %s/%s, as the portal answers it:\n\n%s", p.ask, p.subject, args[p.subject], args["bu"], args["stage"], pretty)
		return &mcp.GetPromptResult{Description: p.title, Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}}}, nil
	}
}
