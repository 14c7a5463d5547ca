/* hwsim-ctl: the few mac80211_hwsim generic-netlink commands the VM suite
 * needs and no packaged tool offers (busybox and iw have none, debugfs has no
 * radio removal). Runs inside the test VM.
 *
 *   hwsim-ctl list            one line per radio of this network namespace: ID NAME
 *   hwsim-ctl del NAME|ID     remove a radio (as if its hardware were unplugged)
 *
 * The kernel only acts on radios whose wiphy lives in the caller's network
 * namespace, so run it with `ip netns exec` where the radio is.
 *
 * The numbers below are the kernel's (drivers/net/wireless/mac80211_hwsim.h),
 * which no installed header carries. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#define HWSIM_FAMILY "MAC80211_HWSIM"
#define HWSIM_CMD_DEL_RADIO 5
#define HWSIM_CMD_GET_RADIO 6
#define HWSIM_ATTR_RADIO_ID 10
#define HWSIM_ATTR_RADIO_NAME 17
#define HWSIM_ATTR_MAX 32

static int usage(void)
{
	fprintf(stderr, "usage: hwsim-ctl list\n"
			"       hwsim-ctl del NAME|ID\n");
	return 2;
}

static int print_radio(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[HWSIM_ATTR_MAX + 1];
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	int *count = arg;

	if (nla_parse(tb, HWSIM_ATTR_MAX, genlmsg_attrdata(gh, 0), genlmsg_attrlen(gh, 0), NULL) < 0)
		return NL_SKIP;
	if (!tb[HWSIM_ATTR_RADIO_ID])
		return NL_SKIP;
	printf("%u", nla_get_u32(tb[HWSIM_ATTR_RADIO_ID]));
	if (tb[HWSIM_ATTR_RADIO_NAME]) /* not NUL-terminated by the kernel */
		printf(" %.*s", nla_len(tb[HWSIM_ATTR_RADIO_NAME]),
		       (const char *)nla_data(tb[HWSIM_ATTR_RADIO_NAME]));
	printf("\n");
	(*count)++;
	return NL_OK;
}

/* An ID is all digits; anything else is a wiphy name such as phy3. */
static int put_radio(struct nl_msg *msg, const char *which)
{
	char *end;
	errno = 0;
	unsigned long id = strtoul(which, &end, 10);
	if (*which && !*end && !errno && id <= 0x7fffffff)
		return nla_put_u32(msg, HWSIM_ATTR_RADIO_ID, (uint32_t)id);
	return nla_put_string(msg, HWSIM_ATTR_RADIO_NAME, which);
}

int main(int argc, char **argv)
{
	bool list = argc == 2 && strcmp(argv[1], "list") == 0;
	bool del = argc == 3 && strcmp(argv[1], "del") == 0;
	if (!list && !del)
		return usage();

	struct nl_sock *sk = nl_socket_alloc();
	if (!sk || genl_connect(sk) < 0) {
		fprintf(stderr, "hwsim-ctl: cannot open a generic netlink socket\n");
		return 1;
	}
	int family = genl_ctrl_resolve(sk, HWSIM_FAMILY);
	if (family < 0) {
		fprintf(stderr, "hwsim-ctl: no %s family (is mac80211_hwsim loaded?): %s\n",
			HWSIM_FAMILY, nl_geterror(family));
		nl_socket_free(sk);
		return 1;
	}

	struct nl_msg *msg = nlmsg_alloc();
	int count = 0, r;
	if (!msg)
		return 1;
	if (list) {
		genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, NLM_F_DUMP,
			    HWSIM_CMD_GET_RADIO, 1);
		nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, print_radio, &count);
	} else {
		genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, 0, HWSIM_CMD_DEL_RADIO, 1);
		if (put_radio(msg, argv[2]) < 0) {
			fprintf(stderr, "hwsim-ctl: message too long\n");
			return 1;
		}
	}
	r = nl_send_auto(sk, msg);
	if (r >= 0)
		r = list ? nl_recvmsgs_default(sk) : nl_wait_for_ack(sk);
	nlmsg_free(msg);
	nl_socket_free(sk);
	if (r < 0) {
		/* -ENODEV from the kernel: no such radio in this namespace. */
		fprintf(stderr, "hwsim-ctl: %s%s%s: %s\n", argv[1], del ? " " : "", del ? argv[2] : "",
			nl_geterror(r));
		return 1;
	}
	return 0;
}
