package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/edh-platform/rms-portal/client"
)

// requestCmd files a document as a change request: the plan an Admin of
// the unit reviews and, approved, the portal applies.
func requestCmd(o *options) *cobra.Command {
	var f docFlags
	var reason string
	cmd := &cobra.Command{
		Use:   "request -f FILE --reason TEXT",
		Short: "File a document's plan as a change request for review (and list, show, approve, reject or withdraw requests)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			bu, stage, err := o.scope()
			if err != nil {
				return err
			}
			if reason == "" {
				return errors.New("say why with --reason: the reviewer reads it")
			}
			body, err := o.readDoc(f.files, f.kinds)
			if err != nil {
				return err
			}
			doc, err := wireDoc(body)
			if err != nil {
				return err
			}
			c, err := o.api(cmd.Context())
			if err != nil {
				return err
			}
			r, _, err := c.FileChangeRequest(cmd.Context(), bu, stage, doc, &client.FileChangeRequestParams{Reason: reason})
			if err != nil {
				return err
			}
			if o.output == "json" {
				return o.printJSON(r)
			}
			o.show(&plan{Plan: r.Plan})
			fmt.Fprintf(o.stdout, "Change request %s is %s: an Admin of %s reviews it (%s/%s/%s/change-request/%s).\n", r.ID, r.State, bu, o.serverKey(), bu, stage, r.ID)
			return nil
		},
	}
	cmd.Flags().StringSliceVarP(&f.files, "file", "f", nil, "the document: files (multi-document YAML or JSON {\"items\": [...]}) or directories of them; repeatable")
	cmd.Flags().StringVar(&reason, "reason", "", "why the change is needed (required)")
	cmd.Flags().StringSliceVar(&f.kinds, "kind", nil, "only these kinds of the document (repeatable or comma-separated)")
	cmd.AddCommand(requestListCmd(o), requestStepCmd(o, "show", "Show a change request with its diff"),
		requestStepCmd(o, "approve", "Approve a change request: the portal applies exactly its plan as you"),
		requestStepCmd(o, "reject", "Reject a change request"),
		requestStepCmd(o, "withdraw", "Withdraw your own change request"))
	return cmd
}
