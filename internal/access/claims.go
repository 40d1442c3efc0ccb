package access

import "fmt"

// GroupsFromClaims reads the groups claim of a token's claims. Overage is
// true when the identity provider left the groups out because there were
// too many (Entra ID puts a reference in _claim_names, or hasgroups: true,
// instead of the list): the caller then has roles only from what the
// token holds, and should be told so rather than "not onboarded".
func GroupsFromClaims(claims map[string]any, claim string) (groups []string, overage bool, err error) {
	raw, present := claims[claim]
	if names, ok := claims["_claim_names"].(map[string]any); ok && !present {
		_, overage = names[claim]
		if _, std := names["groups"]; std {
			overage = true
		}
	}
	if has, ok := claims["hasgroups"].(bool); ok && has && !present {
		overage = true
	}
	switch x := raw.(type) {
	case nil:
		return nil, overage, nil
	case string:
		return []string{x}, overage, nil
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, overage, fmt.Errorf("the %q claim must be a list of strings", claim)
			}
			out = append(out, s)
		}
		return out, overage, nil
	case []string:
		return x, overage, nil
	}
	return nil, overage, fmt.Errorf("the %q claim must be a list of strings", claim)
}

// OverageExplanation tells a caller whose token had no room for its groups
// what happened and what to ask for.
const OverageExplanation = "Your identity provider left your groups out of the token because you are in too many " +
	"(a groups overage), so the portal cannot see the groups that give you roles. Ask the platform team to " +
	"have the portal's app registration emit only the groups assigned to the application (Entra ID: " +
	"groupMembershipClaims \"ApplicationGroup\"), then sign in again."
