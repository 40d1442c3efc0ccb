package assistants

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// confirmInput is the id of the door's one input request: the person's
// confirmation of a destructive call.
const confirmInput = "confirm"

// confirmation is nil when a destructive call is confirmed: the person
// typed the resource's name, given as the confirm argument or as the
// answer to the door's elicitation. Without either, the door asks the
// person (a multi round-trip input request, which a client that
// elicits puts to them and answers with the call again); a wrong name
// or a declined confirmation refuses the call, and nothing is sent.
func (t tool) confirmation(args callArgs, req *mcp.CallToolRequest) *mcp.CallToolResult {
	var target string
	_ = json.Unmarshal(args[t.confirm], &target)
	var typed string
	_ = json.Unmarshal(args[confirmArg], &typed)
	answered := false
	if typed == "" && req.Params != nil {
		if r, ok := req.Params.InputResponses[confirmInput].(*mcp.ElicitResult); ok {
			answered = true
			if r.Action != "accept" {
				return refused(portal.New(portal.Conflict, "the person did not confirm (%s): nothing was changed", r.Action))
			}
			typed, _ = r.Content["name"].(string)
		}
	}
	switch {
	case typed == target:
		return nil
	case typed != "" || answered:
		e := portal.Invalid(confirmArg, "the person typed %q, not %s's name %q: nothing was changed", portal.Clip(typed, 64), t.confirm, target)
		return refused(e)
	}
	return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{confirmInput: &mcp.ElicitParams{
		Message: t.op.Summary + ": " + target + ". This cannot be undone, and what depends on it breaks. Type its " + t.confirm + " to confirm.",
		RequestedSchema: map[string]any{"type": "object", "required": []string{"name"},
			"properties": map[string]any{"name": map[string]any{"type": "string", "title": "The " + t.confirm + " to " + t.def.Name}}},
	}}}
}
