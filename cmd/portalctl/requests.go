package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"text/tabwriter"

	"github.com/edh-platform/rms-portal/internal/wire"
	"github.com/spf13/cobra"
)

// showRequests prints change requests as JSON when asked, else as a table.
func (o *options) showRequests(raw []byte, list []wire.ChangeRequest) error {
	if o.output == "json" {
		_, err := o.stdout.Write(append(raw, '\n'))
		return err
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
			path := unitPath(bu, stage, "change-requests")
			if state != "" {
				path += "?state=" + url.QueryEscape(state)
			}
			raw, _, err := o.call(cmd.Context(), "GET", path, nil, nil)
			if err != nil {
				return err
			}
			var page struct {
				Items []wire.ChangeRequest `json:"items"`
			}
			if err := json.Unmarshal(raw, &page); err != nil {
				return err
			}
			return o.showRequests(raw, page.Items)
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
			method, path, body := "POST", unitPath(bu, stage, "change-request", args[0], step), []byte(nil)
			if step == "show" {
				method, path = "GET", unitPath(bu, stage, "change-request", args[0])
			} else {
				body, _ = json.Marshal(map[string]string{"comment": comment})
			}
			raw, _, err := o.call(cmd.Context(), method, path, body, nil)
			if err != nil {
				return err
			}
			var r wire.ChangeRequest
			if err := json.Unmarshal(raw, &r); err != nil {
				return err
			}
			if o.output != "json" && step == "show" {
				o.show(&plan{Plan: r.Plan})
			}
			return o.showRequests(raw, []wire.ChangeRequest{r})
		},
	}
	if step == "approve" || step == "reject" {
		cmd.Flags().StringVar(&comment, "comment", "", "a word for the requester")
	}
	return cmd
}
