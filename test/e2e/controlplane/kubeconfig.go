package controlplane

import (
	"fmt"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// writeKubeconfig writes a kubeconfig with one cluster, user and context, all
// named user, so `--kubeconfig FILE` needs no `--context`.
func writeKubeconfig(path, user, server string, caPEM []byte, token string) (string, error) {
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters[user] = &clientcmdapi.Cluster{Server: server, CertificateAuthorityData: caPEM}
	cfg.AuthInfos[user] = &clientcmdapi.AuthInfo{Token: token}
	cfg.Contexts[user] = &clientcmdapi.Context{Cluster: user, AuthInfo: user, Namespace: "default"}
	cfg.CurrentContext = user
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		return "", fmt.Errorf("writing the kubeconfig for %s to %s: %w", user, path, err)
	}
	return path, nil
}
