// Package present writes the domain's values as the API's wire types:
// what the answers of the JSON door (and so the tools of the assistants'
// door) hold, apart from how they are asked. Nothing here decides or
// reads anything; a secret is written only where the domain value holds
// one, which only the answer that hands it out does.
package present
