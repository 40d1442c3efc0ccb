// Command terraform-provider-portal is the portal's Terraform and
// OpenTofu provider (protocol 6): Terraform starts it, it is not run by
// hand. With -debug it runs for a debugger and prints the
// TF_REATTACH_PROVIDERS to give Terraform.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/edh-platform/rms-portal/internal/version"
	"github.com/edh-platform/rms-portal/tfprovider"
)

// Address is the provider's address in a registry or a mirror.
const Address = "registry.terraform.io/edh-platform/portal"

func main() {
	debug := flag.Bool("debug", false, "run for a debugger (prints TF_REATTACH_PROVIDERS)")
	flag.Parse()
	err := providerserver.Serve(context.Background(), tfprovider.New(version.Get().Version), providerserver.ServeOpts{
		Address: Address, Debug: *debug, ProtocolVersion: 6,
	})
	if err != nil {
		log.Fatal(err)
	}
}
