package portal

// The consumer group's actions, with the past tenses that name their CloudEvents
// (consumerGroupKind lists them).
var (
	ActConsumerGroupDelete       = Action{"consumer-group.delete", "deleted"}
	ActConsumerGroupResetOffsets = Action{"consumer-group.reset-offsets", "offsets-reset"}
)

// consumerGroupKind declares the consumer group: see KindInfo.
var consumerGroupKind = KindInfo{
	Change: "consumer-group", Title: "Consumer group", Titles: "Consumer groups",
	Plural: "consumer-groups", Item: "consumer-group", Readable: true, Aliases: []string{"group", "groups"},
	Columns: []string{"id", "state", "members", "lag"},
	Nav:     2, Icon: "queue",
	Verbs: []Action{ActConsumerGroupDelete, ActConsumerGroupResetOffsets},
}
