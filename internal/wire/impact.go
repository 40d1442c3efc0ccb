package wire

// Dependant is something that uses a resource a delete would remove.
type Dependant struct {
	Kind   string `json:"kind" enum:"consumer_group,grant,connector,topic,subject,api_key,role_binding"`
	Name   string `json:"name"`
	Unit   string `json:"unit"`
	Detail string `json:"detail"`
	Live   bool   `json:"live" doc:"It breaks when the resource goes."`
}

// Impact is what a delete would break.
type Impact struct {
	Kind       string      `json:"kind" enum:"topic,subject,connector,service_account,identity_pool"`
	Name       string      `json:"name"`
	Live       int         `json:"live" doc:"How many dependants are live."`
	Dependants []Dependant `json:"dependants"`
}
