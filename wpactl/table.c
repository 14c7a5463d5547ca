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
	[WC_OPT_SSID] = { "ssid", 's', "SSID", false, false, "the network name to offer" },
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
};

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
	{ "station DEV autoconnect on|off", 0, cmd_station_autoconnect, 0,
	  "let the station join known networks on its own, or not", NULL },
	{ "station DEV show", 0, cmd_station_show, 0, "show the connection state", NULL },

	{ "known list", 0, cmd_known_list, 0, "list the networks wpad remembers", NULL },
	{ "known forget NAME", WC_O(WC_OPT_SECURITY), cmd_known_forget, 0,
	  "forget a network and its passphrase (disconnecting from it)", NULL },
	{ "known autoconnect NAME on|off", WC_O(WC_OPT_SECURITY), cmd_known_autoconnect, 0,
	  "let wpad join a known network on its own, or not", NULL },

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
