// Command kubectl117 is kubectl 1.17's `rolling-update`, built from its own
// module (k8s.io/kubectl v0.17.17), with the factory and global flags that
// kubectl 1.17's root command sets up. rollscope's peer test in test/e2e runs
// it beside `rollscope rolling-update` on the same API server; it is not part
// of rollscope.
package main

import (
	"flag"
	"math/rand"
	"os"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	cliflag "k8s.io/component-base/cli/flag"
	"k8s.io/component-base/logs"
	"k8s.io/kubectl/pkg/cmd/rollingupdate"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
)

func main() {
	rand.Seed(time.Now().UnixNano())
	root := &cobra.Command{Use: "kubectl", SilenceUsage: true}
	// As kubectl 1.17's NewKubectlCommand: normalized flag names, the
	// kubeconfig flags, --match-server-version, and the go flags (klog's -v).
	flags := root.PersistentFlags()
	flags.SetNormalizeFunc(cliflag.WarnWordSepNormalizeFunc)
	flags.SetNormalizeFunc(cliflag.WordSepNormalizeFunc)
	kubeConfigFlags := genericclioptions.NewConfigFlags(true).WithDeprecatedPasswordFlag()
	kubeConfigFlags.AddFlags(flags)
	matchVersionKubeConfigFlags := cmdutil.NewMatchVersionFlags(kubeConfigFlags)
	matchVersionKubeConfigFlags.AddFlags(flags)
	flags.AddGoFlagSet(flag.CommandLine)
	f := cmdutil.NewFactory(matchVersionKubeConfigFlags)
	streams := genericclioptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
	root.AddCommand(rollingupdate.NewCmdRollingUpdate(f, streams))

	logs.InitLogs()
	defer logs.FlushLogs()
	if err := root.Execute(); err != nil {
		os.Exit(1)
	}
}
