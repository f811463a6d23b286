package main

import (
	"time"

	"github.com/spf13/pflag"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/canary"
	"rollscope/engine/embedded"
	"rollscope/engine/forecast"
	"rollscope/engine/nodegroup"
	"rollscope/engine/perform"
	"rollscope/engine/sim"
	"rollscope/kube/connect"
	"rollscope/kube/memapi"
	"rollscope/model/action"
	"rollscope/ui"
)

// actionFlags are the console's flags for the keys that change a cluster.
type actionFlags struct {
	yes, readOnly, record bool
	step, deleteNodes     bool
}

func (f *actionFlags) addTo(fs *pflag.FlagSet) {
	fs.BoolVar(&f.yes, "yes", false, "send rollout actions without asking for y")
	fs.BoolVar(&f.readOnly, "read-only", false, "disable every key that would change the cluster")
	fs.BoolVar(&f.record, "record", true, "set image records kubernetes.io/change-cause (--record=false to leave it)")
	fs.BoolVar(&f.step, "step", false, "node-group rolls (D) start stepped: the roll waits for n after every node")
	fs.BoolVar(&f.deleteNodes, "delete-nodes", false,
		"live cluster: a node-group roll deletes each drained Node object so your own machinery replaces it "+
			"(without it the node is left drained and cordoned, and the roll waits for replacement capacity); "+
			"the embedded cluster always replaces nodes")
}

// apply hands the console its actions on client (none with --read-only);
// now is the cluster's clock (restart's restartedAt stamp), live says
// rollscope cannot create the cluster's machines; groups are the node
// groups the embedded cluster's roll controller knows, and metrics what a
// canary's metric gates read at plan time.
func (f *actionFlags) apply(opts *ui.Options, client kubernetes.Interface, now func() time.Time, live bool, groups []nodegroup.Group, metrics canary.Metrics) {
	opts.AssumeYes, opts.ReadOnly, opts.Record = f.yes, f.readOnly, f.record
	opts.RollDefaults = action.RollDefaults{Step: f.step, DeleteNodes: f.deleteNodes && live, Live: live}
	if f.readOnly {
		return
	}
	opts.Actions = perform.New(perform.Config{
		Client: client, Now: now, Record: f.record, DeleteNodes: opts.RollDefaults.DeleteNodes,
		Groups: groups, Metrics: metrics, Explain: connect.Explain, Room: embedded.Room, InProcess: !live,
		// A forecast runs on a copy in an empty embedded API on its own clock.
		Rehearsal: func(clock *sim.Clock) forecast.Backend { return memapi.New(memapi.Options{Clock: clock, Seed: 1}) },
	})
}
