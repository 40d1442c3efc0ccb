package main

import (
	"context"
	"errors"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/edh-platform/rms-portal/client"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// grantCmd is access across units: ask another unit of the zone for
// access to its topic, list, and review, withdraw or revoke grants.
func grantCmd(o *options) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "grant",
		Short: "Ask another unit for access to its topics, and review, withdraw or revoke grants",
	}
	cmd.AddCommand(grantRequestCmd(o), grantListCmd(o),
		grantStepCmd(o, "approve", "Approve a request on your unit's topic: the role bindings are made"),
		grantStepCmd(o, "reject", "Reject a request on your unit's topic"),
		grantStepCmd(o, "withdraw", "Withdraw your unit's request"),
		grantStepCmd(o, "revoke", "Revoke a grant: its role bindings are removed"))
	return cmd
}

// grantPattern is the topic, or the prefix, a grant covers.
func grantPattern(g wire.Grant) string {
	if g.Prefix {
		return g.Topic + "*"
	}
	return g.Topic
}

// showGrants prints grants as JSON when asked (answer, as the portal
// wrote it), else as a table.
func (o *options) showGrants(answer any, list []wire.Grant) error {
	if o.output == "json" {
		return o.printJSON(answer)
	}
	tw := tabwriter.NewWriter(o.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTOPIC\tOWNER\tGRANTEE\tPRINCIPAL\tACCESS\tSTATE")
	for _, g := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", g.ID, grantPattern(g), g.Owner, g.Grantee, g.PrincipalName, g.Access, g.State)
	}
	return tw.Flush()
}

func grantRequestCmd(o *options) *cobra.Command {
	var in wire.GrantRequest
	cmd := &cobra.Command{
		Use:   "request --owner UNIT --topic TOPIC --access read|write --principal ID --reason TEXT",
		Short: "Ask another unit of the landing zone for access to its topic for one of your unit's accounts or pools",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			bu, stage, err := o.scope()
			if err != nil {
				return err
			}
			if in.Reason == "" {
				return errors.New("say why with --reason: the owner's Admins read it")
			}
			c, err := o.api(cmd.Context())
			if err != nil {
				return err
			}
			g, _, err := c.RequestGrant(cmd.Context(), bu, stage, in)
			if err != nil {
				return err
			}
			if err := o.showGrants(g, []wire.Grant{g}); err != nil || o.output == "json" {
				return err
			}
			fmt.Fprintf(o.stdout, "Grant %s is %s: an Admin of %s reviews it.\n", g.ID, g.State, g.Owner)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&in.Owner, "owner", "", "the unit that owns the topic")
	f.StringVar(&in.Topic, "topic", "", "the topic: its identifier in the owner unit or its full name")
	f.BoolVar(&in.Prefix, "prefix", false, "the topic is a prefix: every topic of the owner whose name begins so")
	f.StringVar(&in.Access, "access", "read", "read or write")
	f.StringVar(&in.Principal, "principal", "", "your unit's service account (sa-...) or identity pool (pool-...)")
	f.StringVar(&in.Reason, "reason", "", "why the access is needed (required)")
	f.StringVar(&in.Duration, "duration", "", "how long: 7d, 2w, 36h (default: the longest the topic's classification allows)")
	f.StringVar(&in.Renews, "renews", "", "an active grant (gr-...) of the same access to extend once approved")
	return cmd
}

func grantListCmd(o *options) *cobra.Command {
	var side, state, topic string
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the grants your unit gave or received",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			bu, stage, err := o.scope()
			if err != nil {
				return err
			}
			c, err := o.api(cmd.Context())
			if err != nil {
				return err
			}
			var all []wire.Grant
			var page wire.GrantList
			p := &client.ListGrantsParams{Side: side, State: state, Topic: topic}
			for {
				if page, _, err = c.ListGrants(cmd.Context(), bu, stage, p); err != nil {
					return err
				}
				all = append(all, page.Items...)
				if p.PageToken = page.NextPageToken; p.PageToken == "" || o.output == "json" {
					break
				}
			}
			return o.showGrants(page, all)
		},
	}
	cmd.Flags().StringVar(&side, "side", "", "given (on your unit's topics) or received (asked by your unit)")
	cmd.Flags().StringVar(&state, "state", "", "requested, active, rejected, withdrawn, revoked, expired, ended or renewed")
	cmd.Flags().StringVar(&topic, "topic", "", "only the grants covering this topic (full name)")
	return cmd
}

func grantStepCmd(o *options, step, short string) *cobra.Command {
	var comment string
	cmd := &cobra.Command{
		Use:   step + " ID",
		Short: short,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			bu, stage, err := o.scope()
			if err != nil {
				return err
			}
			c, err := o.api(cmd.Context())
			if err != nil {
				return err
			}
			steps := map[string]func(context.Context, string, string, string, wire.Decision) (wire.Grant, client.Meta, error){
				"approve": c.ApproveGrant, "reject": c.RejectGrant, "withdraw": c.WithdrawGrant, "revoke": c.RevokeGrant}
			g, _, err := steps[step](cmd.Context(), bu, stage, args[0], wire.Decision{Comment: comment})
			if err != nil {
				return err
			}
			return o.showGrants(g, []wire.Grant{g})
		},
	}
	if step != "withdraw" {
		cmd.Flags().StringVar(&comment, "comment", "", "a word for the other side")
	}
	return cmd
}
