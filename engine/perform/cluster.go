package perform

import (
	"time"

	"k8s.io/client-go/kubernetes"

	"rollscope/engine/canary"
	"rollscope/engine/forecast"
	"rollscope/engine/nodegroup"
)

// Config is what a Cluster sends with.
type Config struct {
	Client kubernetes.Interface
	// Now is the cluster's clock: restart's restartedAt stamp, a roll's
	// start, the drain preview's pod ages. nil is the wall clock.
	Now func() time.Time
	// Record makes set image record its command in
	// kubernetes.io/change-cause (the console's --record).
	Record bool
	// DeleteNodes makes node-group rolls delete each drained Node object
	// (--delete-nodes on a live cluster).
	DeleteNodes bool
	// Groups are the node groups whose own maxSurge and maxUnavailable a
	// roll falls back on, as the node-roll controller is given them (the
	// embedded cluster's; none on a live cluster: kops' defaults).
	Groups []nodegroup.Group
	// Rehearsal creates the empty API a forecast rehearses on, on the
	// forecast's own clock (kube/memapi in rollscope: the engine does not
	// know it). nil refuses forecasts.
	Rehearsal forecast.NewBackend
	// Metrics reads a canary's metric gates for its plan's confirmation:
	// the Prometheus they name on a live cluster, the scenario's series on
	// the embedded one (as the cluster's canary controller reads them). nil
	// refuses a gated canary at plan time.
	Metrics canary.Metrics
	// Room refuses a number of replicas more than this process has the
	// memory left to hold (engine/embedded.Room in rollscope: the engine
	// does not know it). A forecast asks it for the replicas its copy, in
	// this process, would hold; with InProcess so does a scale for the
	// replicas it adds. nil checks nothing.
	Room func(replicas int) error
	// InProcess says the cluster runs in this process (the embedded one):
	// a scale adding more replicas than Room allows is refused before it
	// is sent, rather than the process being killed for want of memory.
	InProcess bool
	// Explain rewords an error of a request that got no answer in the
	// operator's words (kube/connect.Explain in rollscope: the engine does
	// not know it) before Send, Forecast, Containers and UndoPreview return
	// it. nil keeps client-go's words.
	Explain func(error) error
}

// Cluster sends requests to one cluster and answers the console's
// questions about them. It keeps no state between calls, so the console
// may call it from several commands at once.
type Cluster struct {
	cfg Config
}

// New is a Cluster sending with cfg.
func New(cfg Config) *Cluster {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Explain == nil {
		cfg.Explain = func(err error) error { return err }
	}
	return &Cluster{cfg: cfg}
}
