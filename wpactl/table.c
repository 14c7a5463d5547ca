/* wpactl's grammar: the options and the one table of commands. The words
 * follow parse.h; the order here is the order of the help. */
#include "wpactl/commands.h"

#include <stddef.h>

const struct wc_option wc_options[WC_OPT_COUNT] = {
	[WC_OPT_HELP] = { "help", 'h', NULL, true, false, "show the help (of one command)" },
	[WC_OPT_VERSION] = { "version", 'V', NULL, true, false, "print wpactl's version" },
	[WC_OPT_JSON] = { "json", 'j', NULL, true, false,
			  "print JSON for scripts instead of text" },
	[WC_OPT_BUS] = { "bus", 0, "ADDRESS", true, false,
			 "the D-Bus address of wpad's bus (default: the system bus)" },
	[WC_OPT_TIMEOUT] = { "timeout", 't', "SECONDS", true, false,
			     "how long to wait for a scan, connect or stop (default 180)" },
	[WC_OPT_PASSPHRASE] = { "passphrase", 'p', "P", false, false,
				"the passphrase ('-' reads it from standard input)" },
	[WC_OPT_SECURITY] = { "security", 0, "SEC", false, false,
			      "the security: open or wpa2-psk (ap), open, psk, ... (station, known)" },
	[WC_OPT_SSID] = { "ssid", 's', "SSID", false, false,
			  "the network name (to offer, or to act on)" },
	[WC_OPT_CHANNEL] = { "channel", 'c', "N", false, false, "the channel" },
	[WC_OPT_BAND] = { "band", 0, "2.4|5", false, false, "the band in GHz (default 2.4)" },
	[WC_OPT_HIDDEN] = { "hidden", 0, NULL, false, false,
			    "do not broadcast the network name" },
	[WC_OPT_COUNTRY] = { "country", 0, "CC", false, false,
			     "the country code (DE, US, ...) for the channel rules" },
	[WC_OPT_MAX_STATIONS] = { "max-stations", 0, "N", false, false,
				  "how many stations may join at once" },
	[WC_OPT_ISOLATE] = { "isolate", 0, NULL, false, false,
			     "stations cannot reach each other through the access point" },
	[WC_OPT_SET] = { "set", 0, "KEY=VALUE", false, true,
			 "any other profile key of wpad.conf(5), e.g. DTIMPeriod=3" },
	[WC_OPT_BSSID] = { "bssid", 0, "ADDRESS", false, false,
			   "one access point's address (aa:bb:cc:dd:ee:ff)" },
	[WC_OPT_METHOD] = { "method", 0, "M", false, false,
			    "EAP method(s): PEAP TTLS TLS MD5 GTC MSCHAPV2, space-separated" },
	[WC_OPT_IDENTITY] = { "identity", 0, "ID", false, false, "the user name (identity)" },
	[WC_OPT_ANON_IDENTITY] = { "anonymous-identity", 0, "ID", false, false,
				   "the outer identity of PEAP/TTLS" },
	[WC_OPT_PHASE2] = { "phase2", 0, "M", false, false,
			    "the inner method: MSCHAPV2 GTC MD5 (PEAP), PAP CHAP MSCHAPV2 (TTLS)" },
	[WC_OPT_CA_CERT] = { "ca-cert", 0, "FILE", false, false,
			     "the CA certificate(s) that vouch for the server (PEM)" },
	[WC_OPT_CA_PATH] = { "ca-path", 0, "DIR", false, false, "a hashed directory of CAs" },
	[WC_OPT_CA_SYSTEM] = { "ca-system", 0, NULL, false, false,
			       "trust the system's CA store (needs --server-name or --domain-suffix)" },
	[WC_OPT_SERVER_NAME] = { "server-name", 0, "NAME", false, false,
				 "the server certificate's exact name" },
	[WC_OPT_DOMAIN_SUFFIX] = { "domain-suffix", 0, "SUFFIX", false, false,
				   "the server certificate's domain (it or a name under it)" },
	[WC_OPT_TLS_MIN] = { "tls-min", 0, "1.2|1.3", false, false, "the lowest TLS version" },
	[WC_OPT_CLIENT_CERT] = { "client-cert", 0, "FILE", false, false,
				 "our certificate (PEM, or PKCS#12 with the key)" },
	[WC_OPT_PRIVATE_KEY] = { "private-key", 0, "FILE", false, false, "our key (PEM)" },
	[WC_OPT_PASSWORD] = { "password", 0, "P", false, false,
			      "the password ('-' reads it from standard input; absent: the agent "
			      "is asked)" },
	[WC_OPT_KEY_PASSPHRASE] = { "key-passphrase", 0, "P", false, false,
				    "the private key's passphrase ('-': standard input)" },
	[WC_OPT_STORE_SECRETS] = { "store-secrets", 0, NULL, false, false,
				   "write the password/passphrase into the network's file (else "
				   "kept in memory until wpad stops)" },
	[WC_OPT_UNVERIFIED] = { "allow-unverified-server", 0, NULL, false, false,
				"accept ANY server without checking its certificate (insecure)" },
};

#define KNOWN_8021X_OPTS                                                                           \
	(WC_O(WC_OPT_METHOD) | WC_O(WC_OPT_IDENTITY) | WC_O(WC_OPT_ANON_IDENTITY) |                \
	 WC_O(WC_OPT_PHASE2) | WC_O(WC_OPT_CA_CERT) | WC_O(WC_OPT_CA_PATH) |                       \
	 WC_O(WC_OPT_CA_SYSTEM) | WC_O(WC_OPT_SERVER_NAME) | WC_O(WC_OPT_DOMAIN_SUFFIX) |          \
	 WC_O(WC_OPT_TLS_MIN) | WC_O(WC_OPT_CLIENT_CERT) | WC_O(WC_OPT_PRIVATE_KEY) |              \
	 WC_O(WC_OPT_PASSWORD) | WC_O(WC_OPT_KEY_PASSPHRASE) | WC_O(WC_OPT_STORE_SECRETS) |        \
	 WC_O(WC_OPT_UNVERIFIED) | WC_O(WC_OPT_HIDDEN) | WC_O(WC_OPT_SET))

#define AP_START_OPTS                                                                              \
	(WC_O(WC_OPT_SSID) | WC_O(WC_OPT_PASSPHRASE) | WC_O(WC_OPT_SECURITY) |                     \
	 WC_O(WC_OPT_CHANNEL) | WC_O(WC_OPT_BAND) | WC_O(WC_OPT_HIDDEN) | WC_O(WC_OPT_COUNTRY) |   \
	 WC_O(WC_OPT_MAX_STATIONS) | WC_O(WC_OPT_ISOLATE) | WC_O(WC_OPT_SET))

const struct wc_command wc_commands[] = {
	{ "device list", 0, cmd_device_list, 0, "list the devices and what they are doing", NULL },
	{ "device show DEV", 0, cmd_device_show, 0, "show one device in detail", NULL },
	{ "device power DEV on|off", 0, cmd_device_power, 0, "power a device on or off", NULL },
	{ "device mode DEV station|ap", 0, cmd_device_mode, 0,
	  "make a device a station or an access point",
	  "\n  A station disconnects, an access point stops; the new role starts idle\n"
	  "  (start an access point with `wpactl ap DEV start`). wpad.conf decides\n"
	  "  again when wpad restarts.\n" },

	{ "station DEV scan", 0, cmd_station_scan, 0, "scan, then list the networks in range",
	  NULL },
	{ "station DEV networks", 0, cmd_station_networks, 0,
	  "list the networks the last scan found, strongest first", NULL },
	{ "station DEV connect SSID", WC_O(WC_OPT_PASSPHRASE) | WC_O(WC_OPT_SECURITY),
	  cmd_station_connect, 0, "connect to a network, waiting until connected or failed",
	  "\n  Without --passphrase, wpactl asks for the passphrase on the terminal\n"
	  "  when the network needs one and wpad does not know it yet. A name\n"
	  "  starting with '-' goes after '--': connect -- -name. When the same name\n"
	  "  has several securities, --security picks one (open, psk, sae, 8021x).\n" },
	{ "station DEV connect-hidden SSID", WC_O(WC_OPT_PASSPHRASE), cmd_station_connect_hidden,
	  0, "connect to a network that does not broadcast its name", NULL },
	{ "station DEV disconnect", 0, cmd_station_disconnect, 0,
	  "disconnect, or stop connecting (autoconnect goes off)", NULL },
	{ "station DEV flush-pmksa", WC_O(WC_OPT_SSID) | WC_O(WC_OPT_BSSID), cmd_station_flush_pmksa,
	  0, "drop cached PMKSAs, so the next connect authenticates in full",
	  "\n  Without options every cached PMKSA of the device goes (as wpa_supplicant's\n"
	  "  pmksa_flush); --ssid keeps to one network, --bssid to one access point.\n"
	  "  A link in use stays up. SAE, OWE and 802.1X networks cache; PSK does not.\n" },
	{ "station DEV autoconnect on|off", 0, cmd_station_autoconnect, 0,
	  "let the station join known networks on its own, or not", NULL },
	{ "station DEV show", 0, cmd_station_show, 0, "show the connection state", NULL },

	{ "known list", 0, cmd_known_list, 0, "list the networks wpad remembers", NULL },
	{ "known forget NAME", WC_O(WC_OPT_SECURITY), cmd_known_forget, 0,
	  "forget a network and its passphrase (disconnecting from it)", NULL },
	{ "known autoconnect NAME on|off", WC_O(WC_OPT_SECURITY), cmd_known_autoconnect, 0,
	  "let wpad join a known network on its own, or not", NULL },
	{ "known add-8021x NAME", KNOWN_8021X_OPTS, cmd_known_add_8021x, 0,
	  "remember an enterprise (802.1X) network with its EAP profile",
	  "\n  e.g. --method PEAP --identity alice --phase2 MSCHAPV2 --ca-cert ca.pem\n"
	  "       --domain-suffix example.org\n"
	  "  TLS-based methods need the server checked: --ca-cert, --ca-path or\n"
	  "  --ca-system; only --allow-unverified-server skips it. Without --password\n"
	  "  the agent is asked when wpad connects. --set KEY=VALUE adds any other\n"
	  "  [EAP] key of wpad.conf(5) (Phase2EAP=true, TLSMaxVersion=1.2, AutoConnect=false).\n" },

	{ "ap DEV start", AP_START_OPTS, cmd_ap_start, 0,
	  "start an access point (--ssid and --passphrase or --security open)",
	  "\n  --passphrase makes a WPA2-PSK network; an open one needs --security open.\n"
	  "  The keys are those of [AccessPoint] in wpad.conf(5); --set passes any\n"
	  "  other (BeaconInterval, DTIMPeriod, GroupRekeySeconds, ...).\n" },
	{ "ap DEV stop", 0, cmd_ap_stop, 0, "stop an access point", NULL },
	{ "ap DEV show", 0, cmd_ap_show, 0, "show an access point and its stations", NULL },
	{ "ap DEV disconnect ADDRESS", 0, cmd_ap_disconnect, 0,
	  "disconnect a station from the access point", NULL },
	{ "ap DEV rescan-channel", 0, cmd_ap_rescan_channel, 0,
	  "choose the channel again (Channel=auto) and move there if another wins", NULL },
	{ "ap DEV allow ADDRESS", 0, cmd_ap_allow, 0,
	  "add a station to the allow list (then only listed stations may join)", NULL },
	{ "ap DEV deny ADDRESS", 0, cmd_ap_deny, 0,
	  "add a station to the deny list (it is disconnected if it is in)", NULL },
	{ "ap DEV unlist LIST ADDRESS", 0, cmd_ap_unlist, 0,
	  "remove a station from the allow or deny list", NULL },
	{ "ap DEV reload-lists", 0, cmd_ap_reload_lists, 0,
	  "read MacAllowFile and MacDenyFile again (as SIGHUP does)", NULL },

	{ "wired DEV show", 0, cmd_wired_show, 0,
	  "show a wired port's 802.1X state, method and last error", NULL },
	{ "wired DEV reconnect", 0, cmd_wired_reconnect, 0,
	  "authenticate a wired port again (EAPOL-Logoff, then EAPOL-Start)", NULL },
	{ "wired DEV profile", WC_O(WC_OPT_SET), cmd_wired_profile, 0,
	  "give a wired port an 802.1X profile (--set KEY=VALUE, repeated)",
	  "\n  The keys are the [EAP] keys of wpad.conf(5) (Method, Identity,\n"
	  "  AnonymousIdentity, Password, Phase2, CACert, ServerName, DomainSuffix,\n"
	  "  ClientCert, PrivateKey, ...); wpad checks them as it checks a file.\n"
	  "  Held in memory only: leave Password out to be asked by the agent.\n" },
	{ "wired DEV reset-profile", 0, cmd_wired_reset_profile, 0,
	  "give a wired port back the profile of wpad.conf", NULL },

	{ "monitor", 0, cmd_monitor, 0, "print wpad's events as they happen, one line each",
	  "\n  Property changes, objects that come and go, failed connections, wpad\n"
	  "  stopping and starting. With --json, one JSON object per line. Ctrl-C\n"
	  "  ends it.\n" },
	{ "agent", 0, cmd_agent, WC_CMD_NO_JSON,
	  "answer wpad's passphrase requests on this terminal until Ctrl-C",
	  "\n  Registers an agent with wpad; when a connect needs a passphrase that\n"
	  "  wpad does not know, the prompt appears here (typing is not echoed).\n" },

	{ "_complete devices", 0, cmd_complete, WC_CMD_HIDDEN | WC_CMD_NO_JSON, "", NULL },
	{ "_complete stations", 0, cmd_complete, WC_CMD_HIDDEN | WC_CMD_NO_JSON, "", NULL },
	{ "_complete aps", 0, cmd_complete, WC_CMD_HIDDEN | WC_CMD_NO_JSON, "", NULL },
	{ "_complete known", 0, cmd_complete, WC_CMD_HIDDEN | WC_CMD_NO_JSON, "", NULL },
	{ "_complete networks DEV", 0, cmd_complete, WC_CMD_HIDDEN | WC_CMD_NO_JSON, "", NULL },
	{ "_complete clients DEV", 0, cmd_complete, WC_CMD_HIDDEN | WC_CMD_NO_JSON, "", NULL },
	{ NULL, 0, NULL, 0, NULL, NULL },
};
