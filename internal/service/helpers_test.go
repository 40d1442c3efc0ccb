package service_test

func intp(n int) *int       { return &n }
func strp(s string) *string { return &s }

// goodFilter is an identity pool filter that compiles.
const goodFilter = `claims.aud == "confluent" && claims.sub.startsWith("ci-")`
