package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/edh-platform/rms-portal/client"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// showRequests prints change requests as JSON when asked (answer, as the
// portal wrote it), else as a table.
func (o *options) showRequests(answer any, list []wire.ChangeRequest) error {
	if o.output == "json" {
		return o.printJSON(answer)
	}
	tw := tabwriter.NewWriter(o.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATE\tREQUESTER\tCREATED\tDECIDED BY\tREASON")
	for _, r := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.State, r.Requester, r.Created, r.DecidedBy, r.Reason)
	}
	return tw.Flush()
}

// requestListCmd lists the unit's change requests.
func requestListCmd(o *options) *cobra.Command {
	var state string
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the unit's change requests, newest first",
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
			page, _, err := c.ListChangeRequests(cmd.Context(), bu, stage, &client.ListChangeRequestsParams{State: state})
			if err != nil {
				return err
			}
			return o.showRequests(page, page.Items)
		},
	}
	cmd.Flags().StringVar(&state, "state", "", "open, applied, partly_applied, rejected, withdrawn, stale or expired")
	return cmd
}

// requestStepCmd shows, approves, rejects or withdraws one request.
func requestStepCmd(o *options, step, short string) *cobra.Command {
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
			ctx, decision := cmd.Context(), wire.Decision{Comment: comment}
			var r wire.ChangeRequest
			switch step {
			case "show":
				r, _, err = c.GetChangeRequest(ctx, bu, stage, args[0])
			case "approve":
				r, _, err = c.ApproveChangeRequest(ctx, bu, stage, args[0], decision)
			case "reject":
				r, _, err = c.RejectChangeRequest(ctx, bu, stage, args[0], decision)
			case "withdraw":
				r, _, err = c.WithdrawChangeRequest(ctx, bu, stage, args[0])
			}
			if err != nil {
				return err
			}
			if o.output != "json" && step == "show" {
				o.show(&plan{Plan: r.Plan})
			}
			return o.showRequests(r, []wire.ChangeRequest{r})
		},
	}
	if step == "approve" || step == "reject" {
		cmd.Flags().StringVar(&comment, "comment", "", "a word for the requester")
	}
	return cmd
}
