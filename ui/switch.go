package ui

// Switch is a scope the operator asked for that the running console cannot
// show by itself: another namespace than the one watched, every namespace,
// or another kubeconfig context. The console quits with it (Model.Switch),
// and the command starts the console again, watching the new scope, on the
// same cluster (the embedded one keeps running).
type Switch struct {
	// Namespace is the namespace to watch; ignored with AllNamespaces.
	Namespace     string
	AllNamespaces bool
	// Context is the kubeconfig context to connect to; "" keeps the
	// current one.
	Context string
}

// Switch reports the scope the console quit to switch to; false when it
// quit for good.
func (m Model) Switch() (Switch, bool) {
	if m.switchTo == nil {
		return Switch{}, false
	}
	return *m.switchTo, true
}
