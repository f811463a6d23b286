package ui

import (
	"time"

	"rollscope/themes"
)

// Options configure a console.
type Options struct {
	// Cluster is where the views come from; a *model.Cluster in the
	// product.
	Cluster Source
	// Namespace and Deployment select the rollout shown first. With no
	// Deployment, the first one in Namespace is shown once it appears.
	Namespace, Deployment string
	// Context is the kubeconfig context shown in the header; "embedded"
	// for the embedded cluster.
	Context string
	Theme   themes.Theme
	// Clock is the cluster's clock (virtual in the embedded cluster); ages
	// and the header clock read it. Defaults to time.Now.
	Clock func() time.Time
	// Embedded is the embedded cluster's clock control, nil for a live
	// cluster; the speed and pause keys work only with it.
	Embedded EmbeddedControls
	// Keys overrides the default key map (see LoadKeyMap).
	Keys *KeyMap
}
