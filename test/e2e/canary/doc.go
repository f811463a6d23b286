// Package canary runs rollscope's guided canary against a real control
// plane's deployment controller (kube-controller-manager 1.36.3), with
// hollow nodes running the pods: plans over several sizes and budgets with a
// pod watch proving that each held step has exactly its pods and that no
// extra new pod is ever created, the console killed mid-canary and started
// again continuing it, and a view-only user finding the keys disabled.
package canary
