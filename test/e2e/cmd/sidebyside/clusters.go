package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"rollscope/test/e2e/controlplane"
	"rollscope/test/e2e/cpbuild"
)

// fleetRun measures the fleet on the run's control plane and, with
// -clusters K above 1, on K-1 more started beside it, each with its own
// hollow nodes and the same fleet: one rollscope over every cluster
// (--context region-0,…), one rollscope per cluster, and k9s on the
// first. The multi-cluster console must cost no more than the single
// ones together.
func fleetRun(ctx context.Context, cp *controlplane.ControlPlane, admin kubernetes.Interface, bins cpbuild.Binaries, k int,
	f fleetShape, rollscope, k9s, baseline, work string) ([]result, error) {
	run := strconv.FormatInt(time.Now().Unix(), 36)
	first := &fleetCluster{admin: admin}
	clusters := []*fleetCluster{first}
	planes := []*controlplane.ControlPlane{cp}
	for i := 1; i < k; i++ {
		more, err := controlplane.Start(ctx, controlplane.Config{Binaries: bins, APIQPS: apiQPS, Nice: controlPlaneNice})
		if err != nil {
			return nil, fmt.Errorf("control plane %d: %w", i, err)
		}
		defer more.Stop()
		say("control plane %d at %s", i, more.URL)
		client, err := more.AdminClient()
		if err != nil {
			return nil, err
		}
		stopNodes, err := startNodes(ctx, client, more.AdminKubeconfig, f.pods())
		if err != nil {
			return nil, err
		}
		defer stopNodes()
		planes = append(planes, more)
		clusters = append(clusters, &fleetCluster{admin: client})
	}
	for _, c := range clusters {
		var err error
		c.namespaces, err = fillFleet(ctx, c.admin, run, f)
		defer dropNamespaces(c.admin, c.namespaces)
		if err != nil {
			return nil, err
		}
	}

	kubeconfig := cp.AdminKubeconfig
	var consoles []console
	if k == 1 {
		consoles = append(consoles, console{name: "rollscope fleet", kind: rollscopeFleet, bin: rollscope})
		for _, b := range baselines(baseline) {
			consoles = append(consoles, console{name: "rollscope fleet (" + filepath.Base(b) + ")", kind: rollscopeFleet, bin: b})
		}
		if k9s != "" {
			consoles = append(consoles, console{name: "k9s :deploy (fleet)", kind: k9sFleet, bin: k9s})
		}
	} else {
		var err error
		if kubeconfig, err = regionsKubeconfig(planes, clusters, filepath.Join(work, "regions.kubeconfig")); err != nil {
			return nil, err
		}
		var all []string
		for _, c := range clusters {
			all = append(all, c.context)
		}
		consoles = append(consoles, console{name: fmt.Sprintf("rollscope fleet, %d clusters", k), kind: rollscopeFleet, bin: rollscope,
			args: []string{"--context", strings.Join(all, ",")}})
		for i, c := range clusters {
			consoles = append(consoles, console{name: "rollscope fleet, " + c.context, kind: rollscopeFleet, bin: rollscope,
				args: []string{"--context", c.context}, clusters: []int{i}})
		}
		if k9s != "" {
			consoles = append(consoles, console{name: "k9s :deploy (fleet), " + first.context, kind: k9sFleet, bin: k9s,
				args: []string{"--context", first.context}, clusters: []int{0}})
		}
	}
	return measureFleet(ctx, clusters, kubeconfig, f, consoles, work)
}

// regionsKubeconfig writes one kubeconfig with a context for each control
// plane, region-0, region-1, …, and names the clusters by them.
func regionsKubeconfig(planes []*controlplane.ControlPlane, clusters []*fleetCluster, path string) (string, error) {
	cfg := clientcmdapi.NewConfig()
	for i, cp := range planes {
		one, err := clientcmd.LoadFromFile(cp.AdminKubeconfig)
		if err != nil {
			return "", err
		}
		name := fmt.Sprintf("region-%d", i)
		own := one.Contexts[one.CurrentContext]
		cfg.Clusters[name] = one.Clusters[own.Cluster]
		cfg.AuthInfos[name] = one.AuthInfos[own.AuthInfo]
		cfg.Contexts[name] = &clientcmdapi.Context{Cluster: name, AuthInfo: name, Namespace: "default"}
		clusters[i].context = name
	}
	cfg.CurrentContext = "region-0"
	return path, clientcmd.WriteToFile(*cfg, path)
}
