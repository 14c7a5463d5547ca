/* Malformed-input table: every row is fed to one parser from an exactly
 * sized heap copy (so the sanitizer build catches any over-read), and the
 * exact error code is asserted. A few rows are tricky inputs that must be
 * accepted (CODEC_OK). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/codec/codec_err.h"
#include "daemon/codec/eapol.h"
#include "daemon/codec/frame.h"
#include "daemon/codec/ie_ft.h"
#include "daemon/codec/ie_set.h"
#include "daemon/codec/kde.h"
#include "daemon/codec/pmf.h"

enum parser {
	P_MGMT,       /* mgmt_parse */
	P_DATA,       /* data_hdr_parse */
	P_IES,        /* ie_parse over an element list */
	P_FTE16,      /* ie_parse_fte on an FTE body, 16-octet MIC */
	P_FTE_AUTO,   /* ie_parse_fte, MIC length from the subfield */
	P_EAPOL,      /* eapol_parse */
	P_EAPOL_KEY16, /* eapol_key_frame_parse, 16-octet MIC */
	P_EAPOL_KEY24, /* eapol_key_frame_parse, 24-octet MIC */
	P_KDE,        /* kde_parse on plaintext key data */
	P_MMIE,       /* mmie_parse on an element body */
	P_MMIE_T8,    /* mmie_parse_trailer, 8-octet MIC */
	P_MMIE_T16,   /* mmie_parse_trailer, 16-octet MIC */
	P_SA_QUERY,   /* sa_query_parse from the Category octet */
	P_TIE,        /* ie_parse_timeout_interval on an element body */
};

struct bad_case {
	const char *name;
	const uint8_t *bytes;
	size_t len;
	int expect;
	enum parser parser;
};

/* A string literal as (pointer, length) without its terminating NUL. */
#define B(s) (const uint8_t *)(s), sizeof(s) - 1

#define Z2 "\x00\x00"
#define Z4 Z2 Z2
#define Z5 Z4 "\x00"
#define Z6 Z4 Z2
#define Z8 Z4 Z4
#define Z10 Z8 Z2
#define Z16 Z8 Z8
#define Z20 Z16 Z4
#define Z24 Z16 Z8
#define Z25 Z24 "\x00"
#define Z32 Z16 Z16
#define A_AP "\x02\x11\x22\x33\x44\x55"
#define A_STA "\x02\xaa\xbb\xcc\xdd\xee"
#define A_BC "\xff\xff\xff\xff\xff\xff"
/* 24-octet management header with the given Frame Control octets */
#define MGMT(fc0, fc1) fc0 fc1 Z2 A_BC A_AP A_AP "\x10\x00"
#define DATA_HDR(fc0, fc1) fc0 fc1 Z2 A_AP A_STA A_AP "\x20\x00"
#define BEACON_FIXED Z8 "\x64\x00\x11\x04"
#define CCMP "\x00\x0f\xac\x04"
#define PSK "\x00\x0f\xac\x02"
#define RSN_HEAD "\x01\x00" CCMP "\x01\x00" CCMP /* version, group, 1 pairwise */
#define SUITES17 CCMP CCMP CCMP CCMP CCMP CCMP CCMP CCMP CCMP CCMP CCMP CCMP CCMP CCMP \
		 CCMP CCMP CCMP
#define WMM_OUI "\x00\x50\xf2\x02"
#define AC_BE "\x03\xa4\x00\x00"
#define AC_BK "\x27\xa4\x00\x00"
#define AC_VI "\x42\x43\x5e\x00"
#define AC_VO "\x62\x32\x2f\x00"
#define HE_MAC Z6
/* FTE body: MIC Control, 16-octet MIC, ANonce, SNonce */
#define FTE_BASE(ctrl0) ctrl0 "\x00" Z16 Z32 Z32
/* EAPOL-Key body after the descriptor and key info: key length, replay
 * counter, nonce, IV, RSC, reserved */
#define KEY_MID "\x00\x10" "\x00\x00\x00\x00\x00\x00\x00\x01" Z32 Z16 Z8 Z8
#define MSG1(len, desc, info) "\x02\x03" len desc info KEY_MID
#define KDE_HDR(len, type) "\xdd" len "\x00\x0f\xac" type

static const struct bad_case cases[] = {
	/* ---- management frames ---- */
	{ "mgmt: empty", B(""), CODEC_E_TRUNCATED, P_MGMT },
	{ "mgmt: one octet", B("\x80"), CODEC_E_TRUNCATED, P_MGMT },
	{ "mgmt: header cut at 23", B("\x80\x00" Z2 A_BC A_AP A_AP "\x10"), CODEC_E_TRUNCATED,
	  P_MGMT },
	{ "mgmt: protocol version 1", B(MGMT("\x81", "\x00")), CODEC_E_MALFORMED, P_MGMT },
	{ "mgmt: data frame given", B(MGMT("\x08", "\x00")), CODEC_E_UNSUPPORTED, P_MGMT },
	{ "mgmt: reserved subtype 7", B(MGMT("\x70", "\x00")), CODEC_E_UNSUPPORTED, P_MGMT },
	{ "mgmt: protected reserved subtype 15", B(MGMT("\xf0", "\x40") Z8), CODEC_E_UNSUPPORTED,
	  P_MGMT },
	{ "mgmt: protected beacon", B(MGMT("\x80", "\x40") Z16), CODEC_E_MALFORMED, P_MGMT },
	{ "mgmt: ToDS set", B(MGMT("\x80", "\x01")), CODEC_E_MALFORMED, P_MGMT },
	{ "mgmt: group address as SA",
	  B("\xc0\x00" Z2 A_AP "\x01\x00\x5e\x00\x00\x01" A_AP "\x10\x00" "\x03\x00"),
	  CODEC_E_MALFORMED, P_MGMT },
	{ "mgmt: +HTC field cut", B(MGMT("\x80", "\x80") "\x01\x02"), CODEC_E_TRUNCATED, P_MGMT },
	{ "beacon: fixed fields cut", B(MGMT("\x80", "\x00") Z8 "\x64\x00\x11"),
	  CODEC_E_TRUNCATED, P_MGMT },
	{ "beacon: element overruns frame", B(MGMT("\x80", "\x00") BEACON_FIXED "\x00\x05wpa"),
	  CODEC_E_OVERRUN, P_MGMT },
	{ "beacon: lone element ID at end",
	  B(MGMT("\x80", "\x00") BEACON_FIXED "\x00\x00" "\x01"), CODEC_E_TRUNCATED, P_MGMT },
	{ "auth: fixed fields cut", B(MGMT("\xb0", "\x00") "\x00\x00\x01\x00"),
	  CODEC_E_TRUNCATED, P_MGMT },
	{ "assoc resp: AID cut", B(MGMT("\x10", "\x00") "\x01\x00\x00\x00\x01"),
	  CODEC_E_TRUNCATED, P_MGMT },
	{ "reassoc req: current AP cut", B(MGMT("\x20", "\x00") "\x01\x00\x0a\x00\x02\x66\x77"),
	  CODEC_E_TRUNCATED, P_MGMT },
	{ "deauth: reason cut", B(MGMT("\xc0", "\x00") "\x03"), CODEC_E_TRUNCATED, P_MGMT },
	{ "action: no category", B(MGMT("\xd0", "\x00")), CODEC_E_TRUNCATED, P_MGMT },
	{ "ATIM: non-empty body", B(MGMT("\x90", "\x00") "\x00"), CODEC_E_MALFORMED, P_MGMT },
	{ "probe req: extension element of length 0", B(MGMT("\x40", "\x00") "\xff\x00"),
	  CODEC_E_BAD_LENGTH, P_MGMT },
	{ "assoc req: vendor element runs past frame",
	  B(MGMT("\x00", "\x00") "\x01\x00\x0a\x00" "\xdd\x08\x00\x50\xf2\x02\x00\x01"),
	  CODEC_E_OVERRUN, P_MGMT },
	{ "OK deauth with trailing vendor element",
	  B(MGMT("\xc0", "\x00") "\x03\x00" "\xdd\x04\x00\x11\x22\x01"), CODEC_OK, P_MGMT },

	/* ---- data frame headers ---- */
	{ "data: empty", B(""), CODEC_E_TRUNCATED, P_DATA },
	{ "data: header cut at 20", B("\x08\x01" Z2 A_AP A_STA "\x02\x11\x22\x33"),
	  CODEC_E_TRUNCATED, P_DATA },
	{ "data: 4-address, Address 4 missing", B(DATA_HDR("\x08", "\x03")), CODEC_E_TRUNCATED,
	  P_DATA },
	{ "data: QoS control missing", B(DATA_HDR("\x88", "\x01")), CODEC_E_TRUNCATED, P_DATA },
	{ "data: +HTC cut", B(DATA_HDR("\x88", "\x81") "\x05\x00\x01\x02"), CODEC_E_TRUNCATED,
	  P_DATA },
	{ "data: management frame given", B(DATA_HDR("\x80", "\x00")), CODEC_E_UNSUPPORTED,
	  P_DATA },
	{ "data: protocol version 2", B(DATA_HDR("\x0a", "\x01")), CODEC_E_MALFORMED, P_DATA },
	{ "data: Null frame with a body", B(DATA_HDR("\x48", "\x01") "\x00"), CODEC_E_MALFORMED,
	  P_DATA },
	{ "data: group transmitter",
	  B("\x08\x02" Z2 A_STA "\x03\x00\x00\x00\x00\x01" A_AP "\x20\x00"), CODEC_E_MALFORMED,
	  P_DATA },

	/* ---- element lists ---- */
	{ "ie: SSID of 33 octets",
	  B("\x00\x21" "abcdefghijklmnopqrstuvwxyz0123456"), CODEC_E_BAD_LENGTH, P_IES },
	{ "ie: length past end of buffer", B("\x00\x04" "ab"), CODEC_E_OVERRUN, P_IES },
	{ "ie: lone element ID", B("\x00"), CODEC_E_TRUNCATED, P_IES },
	{ "ie: supported rates of length 0", B("\x01\x00"), CODEC_E_BAD_LENGTH, P_IES },
	{ "ie: nine supported rates", B("\x01\x09" "\x82\x84\x8b\x96\x0c\x12\x18\x24\x30"),
	  CODEC_E_BAD_LENGTH, P_IES },
	{ "ie: extended rates of length 0", B("\x32\x00"), CODEC_E_BAD_LENGTH, P_IES },
	{ "ie: DS parameter of length 2", B("\x03\x02\x06\x00"), CODEC_E_BAD_LENGTH, P_IES },
	{ "ie: TIM of length 3", B("\x05\x03\x00\x01\x00"), CODEC_E_BAD_LENGTH, P_IES },
	{ "ie: TIM with DTIM period 0", B("\x05\x04\x00\x00\x00\x00"), CODEC_E_MALFORMED, P_IES },
	{ "ie: country without a triplet", B("\x07\x03" "US "), CODEC_E_BAD_LENGTH, P_IES },
	{ "ie: country with a partial triplet", B("\x07\x08" "US " "\x01\x0b\x1e\x24\x04"),
	  CODEC_E_BAD_LENGTH, P_IES },
	{ "ie: country with non-zero pad",
	  B("\x07\x0a" "US " "\x01\x0b\x1e" "\x24\x04\x17" "\x01"), CODEC_E_MALFORMED,
	  P_IES },
	{ "ie: country of odd length (pad missing)",
	  B("\x07\x09" "US " "\x01\x0b\x1e" "\x24\x04\x17"), CODEC_E_BAD_LENGTH, P_IES },
	{ "rsn: length 1", B("\x30\x01\x01"), CODEC_E_BAD_LENGTH, P_IES },
	{ "rsn: version 2", B("\x30\x02\x02\x00"), CODEC_E_MALFORMED, P_IES },
	{ "rsn: group cipher cut", B("\x30\x04\x01\x00\x00\x0f"), CODEC_E_TRUNCATED, P_IES },
	{ "rsn: pairwise count exceeds length",
	  B("\x30\x0c\x01\x00" CCMP "\x02\x00" CCMP), CODEC_E_OVERRUN, P_IES },
	{ "rsn: pairwise count zero", B("\x30\x08\x01\x00" CCMP "\x00\x00"), CODEC_E_MALFORMED,
	  P_IES },
	{ "rsn: AKM count cut", B("\x30\x0d" RSN_HEAD "\x01"), CODEC_E_TRUNCATED, P_IES },
	{ "rsn: AKM count exceeds length", B("\x30\x10" RSN_HEAD "\x02\x00\x00\x0f"),
	  CODEC_E_OVERRUN, P_IES },
	{ "rsn: AKM count zero", B("\x30\x0e" RSN_HEAD "\x00\x00"), CODEC_E_MALFORMED, P_IES },
	{ "rsn: capabilities cut", B("\x30\x13" RSN_HEAD "\x01\x00" PSK "\x0c"),
	  CODEC_E_TRUNCATED, P_IES },
	{ "rsn: PMKID count exceeds length",
	  B("\x30\x1e" RSN_HEAD "\x01\x00" PSK "\x00\x00" "\x01\x00" Z8), CODEC_E_OVERRUN, P_IES },
	{ "rsn: PMKID count cut", B("\x30\x15" RSN_HEAD "\x01\x00" PSK "\x00\x00" "\x01"),
	  CODEC_E_TRUNCATED, P_IES },
	{ "rsn: group management cipher cut",
	  B("\x30\x18" RSN_HEAD "\x01\x00" PSK "\x80\x00" "\x00\x00" "\x00\x0f"),
	  CODEC_E_TRUNCATED, P_IES },
	{ "rsn: 17 pairwise suites", B("\x30\x4c\x01\x00" CCMP "\x11\x00" SUITES17),
	  CODEC_E_UNSUPPORTED, P_IES },
	{ "ie: duplicate SSID", B("\x00\x01" "a" "\x00\x01" "b"), CODEC_E_DUPLICATE, P_IES },
	{ "ie: duplicate RSN", B("\x30\x02\x01\x00" "\x30\x02\x01\x00"), CODEC_E_DUPLICATE,
	  P_IES },
	{ "ie: duplicate WMM info",
	  B("\xdd\x07" WMM_OUI "\x00\x01\x00" "\xdd\x07" WMM_OUI "\x00\x01\x00"),
	  CODEC_E_DUPLICATE, P_IES },
	{ "ie: duplicate HT capabilities", B("\x2d\x1a" Z25 "\x00" "\x2d\x1a" Z25 "\x00"),
	  CODEC_E_DUPLICATE, P_IES },
	{ "ht: capabilities of length 25", B("\x2d\x19" Z25), CODEC_E_BAD_LENGTH, P_IES },
	{ "ht: operation with reserved secondary offset", B("\x3d\x16\x06\x02" Z20),
	  CODEC_E_MALFORMED, P_IES },
	{ "vht: capabilities of length 11", B("\xbf\x0b" Z10 "\x00"), CODEC_E_BAD_LENGTH, P_IES },
	{ "vht: operation channel width 4", B("\xc0\x05\x04\x2a\x00\x00\x00"),
	  CODEC_E_MALFORMED, P_IES },
	{ "he: capabilities too short", B("\xff\x0b\x23" Z10), CODEC_E_BAD_LENGTH, P_IES },
	{ "he: 160 MHz MCS map missing", B("\xff\x16\x23" HE_MAC "\x08" Z10 Z4),
	  CODEC_E_TRUNCATED, P_IES },
	{ "he: PPE thresholds missing", B("\xff\x16\x23" HE_MAC Z6 "\x80" Z4 Z4),
	  CODEC_E_TRUNCATED, P_IES },
	{ "he: trailing octet", B("\xff\x17\x23" HE_MAC Z10 "\x00" Z4 "\x00"),
	  CODEC_E_BAD_LENGTH, P_IES },
	/* HE Operation (802.11ax-2021 9.4.2.249): 6 octets plus the fields
	 * the parameter bits 14 (VHT info, 3), 15 (co-hosted, 1), 17 (6 GHz, 5)
	 * announce. */
	/* Channel switch announcements (9.4.2.18, 9.4.2.52). */
	{ "csa: 2 octets", B("\x25\x02\x01\x24"), CODEC_E_BAD_LENGTH, P_IES },
	{ "csa: 4 octets", B("\x25\x04\x01\x24\x05\x00"), CODEC_E_BAD_LENGTH, P_IES },
	{ "csa: reserved mode 2", B("\x25\x03\x02\x24\x05"), CODEC_E_MALFORMED, P_IES },
	{ "csa: new channel 0", B("\x25\x03\x01\x00\x05"), CODEC_E_MALFORMED, P_IES },
	{ "csa: twice", B("\x25\x03\x01\x24\x05\x25\x03\x01\x24\x04"), CODEC_E_DUPLICATE,
	  P_IES },
	{ "csa: count 0 (accepted)", B("\x25\x03\x00\x24\x00"), CODEC_OK, P_IES },
	{ "ecsa: 3 octets", B("\x3c\x03\x01\x73\x24"), CODEC_E_BAD_LENGTH, P_IES },
	{ "ecsa: new channel 0", B("\x3c\x04\x01\x73\x00\x05"), CODEC_E_MALFORMED, P_IES },
	{ "csw wrapper: wide bw 2 octets", B("\xc4\x04\xc2\x02\x01\x2a"), CODEC_E_BAD_LENGTH,
	  P_IES },
	{ "csw wrapper: wide bw width 4", B("\xc4\x05\xc2\x03\x04\x2a\x00"), CODEC_E_MALFORMED,
	  P_IES },
	{ "csw wrapper: twice", B("\xc4\x00\xc4\x00"), CODEC_E_DUPLICATE, P_IES },
	{ "csw wrapper: no wide bw (accepted)", B("\xc4\x03\x07\x01\x55"), CODEC_OK, P_IES },
	{ "he op: 5 octets", B("\xff\x06\x24" Z5), CODEC_E_BAD_LENGTH, P_IES },
	{ "he op: VHT operation info announced, absent",
	  B("\xff\x07\x24" "\x00\x40\x00" "\x01" "\xfc\xff"), CODEC_E_BAD_LENGTH, P_IES },
	{ "he op: 6 GHz info announced, absent", B("\xff\x07\x24" "\x00\x00\x02" "\x01\xfc\xff"),
	  CODEC_E_BAD_LENGTH, P_IES },
	{ "he op: trailing octet", B("\xff\x08\x24" Z6 "\x00"), CODEC_E_BAD_LENGTH, P_IES },
	{ "he op: twice", B("\xff\x07\x24" Z6 "\xff\x07\x24" Z6), CODEC_E_DUPLICATE, P_IES },
	{ "he op: with VHT operation info (accepted)",
	  B("\xff\x0a\x24" "\x00\x40\x00" "\x01" "\xfc\xff" "\x01\x2a\x00"), CODEC_OK, P_IES },
	{ "ie: extended capabilities of length 0", B("\x7f\x00"), CODEC_E_BAD_LENGTH, P_IES },
	{ "ie: MDE of length 2", B("\x36\x02\x01\x02"), CODEC_E_BAD_LENGTH, P_IES },
	{ "ie: FTE shorter than its fixed part", B("\x37\x28" Z32 Z8), CODEC_E_BAD_LENGTH,
	  P_IES },
	{ "ie: vendor element without full OUI", B("\xdd\x02\x00\x50"), CODEC_E_BAD_LENGTH,
	  P_IES },
	{ "wmm: version 2", B("\xdd\x07" WMM_OUI "\x00\x02\x00"), CODEC_E_MALFORMED, P_IES },
	{ "wmm: parameter element of length 7", B("\xdd\x07" WMM_OUI "\x01\x01\x00"),
	  CODEC_E_BAD_LENGTH, P_IES },
	{ "wmm: two records for AC_BE",
	  B("\xdd\x18" WMM_OUI "\x01\x01\x80\x00" AC_BE AC_BE AC_VI AC_VO), CODEC_E_MALFORMED,
	  P_IES },
	{ "wmm: no subtype", B("\xdd\x04" WMM_OUI), CODEC_E_BAD_LENGTH, P_IES },
	{ "wpa: version 2", B("\xdd\x06\x00\x50\xf2\x01\x02\x00"), CODEC_E_MALFORMED, P_IES },
	{ "wpa: pairwise count exceeds length",
	  B("\xdd\x10\x00\x50\xf2\x01\x01\x00\x00\x50\xf2\x02\x02\x00\x00\x50\xf2\x02"),
	  CODEC_E_OVERRUN, P_IES },
	{ "rsnxe: field length disagrees", B("\xf4\x01\x21"), CODEC_E_MALFORMED, P_IES },
	{ "rsnxe: length 0", B("\xf4\x00"), CODEC_E_BAD_LENGTH, P_IES },
	{ "ie: extension element of length 0", B("\x00\x00" "\xff\x00"), CODEC_E_BAD_LENGTH,
	  P_IES },
	{ "ie: vendor element cuts into next element",
	  B("\xdd\x07\x00\x11\x22\x00\x04\x41\x42" "\x01\x02\x82"), CODEC_E_OVERRUN, P_IES },
	{ "OK nested element inside vendor body is not parsed",
	  B("\xdd\x07\x00\x11\x22\x00\x40\x41\x42" "\x01\x01\x82"), CODEC_OK, P_IES },
	{ "OK WMM parameter element with reordered ACs",
	  B("\xdd\x18" WMM_OUI "\x01\x01\x80\x00" AC_VO AC_BK AC_VI AC_BE), CODEC_OK, P_IES },

	/* ---- FTE bodies ---- */
	{ "fte: subelement overruns", B(FTE_BASE("\x00") "\x03\x05" "ab"), CODEC_E_OVERRUN,
	  P_FTE16 },
	{ "fte: subelement header cut", B(FTE_BASE("\x00") "\x01"), CODEC_E_TRUNCATED, P_FTE16 },
	{ "fte: R1KH-ID of length 5", B(FTE_BASE("\x00") "\x01\x05" Z5), CODEC_E_BAD_LENGTH,
	  P_FTE16 },
	{ "fte: duplicate R0KH-ID", B(FTE_BASE("\x00") "\x03\x01" "a" "\x03\x01" "b"),
	  CODEC_E_DUPLICATE, P_FTE16 },
	{ "fte: GTK wrapped key not a block multiple",
	  B(FTE_BASE("\x00") "\x02\x24" "\x01\x00\x10" Z8 Z25), CODEC_E_MALFORMED, P_FTE16 },
	{ "fte: reserved MIC Length subfield", B(FTE_BASE("\x06")), CODEC_E_MALFORMED,
	  P_FTE_AUTO },
	{ "fte: 24-octet MIC does not fit", B("\x02\x00" Z16 Z32 Z32), CODEC_E_BAD_LENGTH,
	  P_FTE_AUTO },
	{ "OK fte: unknown subelement skipped", B(FTE_BASE("\x00") "\x63\x02" "zz"), CODEC_OK,
	  P_FTE16 },

	/* ---- EAPOL ---- */
	{ "eapol: header cut", B("\x02\x03\x00"), CODEC_E_TRUNCATED, P_EAPOL },
	{ "eapol: body length > buffer", B("\x02\x00\x00\x10" "\x01\x01\x00\x04"),
	  CODEC_E_OVERRUN, P_EAPOL },
	{ "eapol: version 0", B("\x00\x01\x00\x00"), CODEC_E_MALFORMED, P_EAPOL },
	{ "eapol: version 4", B("\x04\x01\x00\x00"), CODEC_E_MALFORMED, P_EAPOL },
	{ "eapol: unknown packet type", B("\x02\x09\x00\x00"), CODEC_E_UNSUPPORTED, P_EAPOL },
	{ "key: not a Key packet", B("\x02\x00\x00\x04" "\x01\x01\x00\x04"),
	  CODEC_E_UNSUPPORTED, P_EAPOL_KEY16 },
	{ "key: RC4 descriptor 1", B(MSG1("\x00\x5f", "\x01", "\x00\x89") Z16 "\x00\x00"),
	  CODEC_E_UNSUPPORTED, P_EAPOL_KEY16 },
	{ "key: empty body", B("\x02\x03\x00\x00"), CODEC_E_TRUNCATED, P_EAPOL_KEY16 },
	{ "key: fixed fields cut", B("\x02\x03\x00\x32" "\x02\x00\x8a" Z16 Z16 Z8 Z4 "\x00" Z2),
	  CODEC_E_TRUNCATED, P_EAPOL_KEY16 },
	{ "key: key data length > remaining",
	  B(MSG1("\x00\x63", "\x02", "\x00\x8a") Z16 "\x00\x10" Z4), CODEC_E_OVERRUN,
	  P_EAPOL_KEY16 },
	{ "key: octets after key data", B(MSG1("\x00\x63", "\x02", "\x00\x8a") Z16 "\x00\x02" Z4),
	  CODEC_E_MALFORMED, P_EAPOL_KEY16 },
	{ "key: 24-octet MIC expected, 16 sent",
	  B(MSG1("\x00\x5f", "\x02", "\x00\x8a") Z16 "\x00\x00"), CODEC_E_TRUNCATED,
	  P_EAPOL_KEY24 },
	{ "key: 16-octet MIC expected, 24 sent",
	  B(MSG1("\x00\x67", "\x02", "\x03\x88") Z24 "\x00\x00"), CODEC_E_MALFORMED,
	  P_EAPOL_KEY16 },
	{ "key: descriptor version 5", B(MSG1("\x00\x5f", "\x02", "\x00\x8d") Z16 "\x00\x00"),
	  CODEC_E_MALFORMED, P_EAPOL_KEY16 },
	{ "key: WPA descriptor with version 3",
	  B(MSG1("\x00\x5f", "\xfe", "\x00\x8b") Z16 "\x00\x00"), CODEC_E_MALFORMED,
	  P_EAPOL_KEY16 },
	{ "key: encrypted key data of 20 octets",
	  B(MSG1("\x00\x73", "\x02", "\x13\xca") Z16 "\x00\x14" Z20), CODEC_E_MALFORMED,
	  P_EAPOL_KEY16 },
	{ "key: encrypted key data not a block multiple",
	  B(MSG1("\x00\x78", "\x02", "\x13\xca") Z16 "\x00\x19" Z25), CODEC_E_MALFORMED,
	  P_EAPOL_KEY16 },

	/* ---- key data ---- */
	{ "kde: length past end", B(KDE_HDR("\x16", "\x04") Z4), CODEC_E_OVERRUN, P_KDE },
	{ "kde: GTK key of 4 octets", B(KDE_HDR("\x0a", "\x01") "\x01\x00" Z4),
	  CODEC_E_BAD_LENGTH, P_KDE },
	{ "kde: duplicate GTK",
	  B(KDE_HDR("\x16", "\x01") "\x01\x00" Z16 KDE_HDR("\x16", "\x01") "\x02\x00" Z16),
	  CODEC_E_DUPLICATE, P_KDE },
	{ "kde: PMKID of 15 octets", B(KDE_HDR("\x13", "\x04") Z8 Z4 Z2 "\x00"),
	  CODEC_E_BAD_LENGTH, P_KDE },
	{ "kde: IGTK with key ID 1", B(KDE_HDR("\x1c", "\x09") "\x01\x00" Z6 Z16),
	  CODEC_E_MALFORMED, P_KDE },
	{ "kde: BIGTK with 20-octet key", B(KDE_HDR("\x20", "\x0e") "\x06\x00" Z6 Z20),
	  CODEC_E_BAD_LENGTH, P_KDE },
	{ "kde: MAC address of 5 octets", B(KDE_HDR("\x09", "\x03") Z5), CODEC_E_BAD_LENGTH,
	  P_KDE },
	{ "kde: data after padding", B("\xdd\x00\x01"), CODEC_E_MALFORMED, P_KDE },
	{ "kde: vendor element shorter than OUI and type", B("\xdd\x02\x00\x0f"),
	  CODEC_E_BAD_LENGTH, P_KDE },
	{ "kde: three RSN elements",
	  B("\x30\x02\x01\x00" "\x30\x02\x01\x00" "\x30\x02\x01\x00"), CODEC_E_DUPLICATE, P_KDE },
	{ "kde: embedded RSN element malformed", B("\x30\x02\x02\x00"), CODEC_E_MALFORMED,
	  P_KDE },
	{ "mmie: body of 15", B("\x04\x00" Z6 "\x00\x00\x00\x00\x00\x00\x00"), CODEC_E_BAD_LENGTH, P_MMIE },
	{ "mmie: body of 20", B("\x04\x00" Z6 Z8 Z4), CODEC_E_BAD_LENGTH, P_MMIE },
	{ "mmie: key id 8", B("\x08\x00" Z6 Z8), CODEC_E_MALFORMED, P_MMIE },
	{ "mmie: 16-octet body ok", B("\x05\x00" Z6 Z8), CODEC_OK, P_MMIE },
	{ "mmie: 24-octet body ok", B("\x04\x00" Z6 Z16), CODEC_OK, P_MMIE },
	{ "mmie trailer: body too short", B("\x4c\x10" Z8 Z6), CODEC_E_TRUNCATED, P_MMIE_T8 },
	{ "mmie trailer: not last element", B("\x4c\x10\x04\x00" Z6 Z8 "\x00\x00"),
	  CODEC_E_MALFORMED, P_MMIE_T8 },
	{ "mmie trailer: 8-octet MIC where 16 expected", B("\x02\x00" Z8 "\x4c\x10\x04\x00" Z6 Z8),
	  CODEC_E_MALFORMED, P_MMIE_T16 },
	{ "mmie trailer: wrong element id", B("\x4d\x10\x04\x00" Z6 Z8), CODEC_E_MALFORMED, P_MMIE_T8 },
	{ "mmie trailer: after a reason code ok", B("\x02\x00\x4c\x10\x04\x00" Z6 Z8), CODEC_OK,
	  P_MMIE_T8 },
	{ "mmie trailer: 16-octet MIC ok", B("\x4c\x18\x04\x00" Z6 Z16), CODEC_OK, P_MMIE_T16 },
	{ "sa query: empty", B(""), CODEC_E_TRUNCATED, P_SA_QUERY },
	{ "sa query: other category", B("\x04\x00\x01\x02"), CODEC_E_UNSUPPORTED, P_SA_QUERY },
	{ "sa query: no transaction id", B("\x08\x00"), CODEC_E_TRUNCATED, P_SA_QUERY },
	{ "sa query: half a transaction id", B("\x08\x01\x12"), CODEC_E_TRUNCATED, P_SA_QUERY },
	{ "sa query: action 2", B("\x08\x02\x12\x34"), CODEC_E_MALFORMED, P_SA_QUERY },
	{ "sa query: element runs past end", B("\x08\x00\x12\x34\xc1\x05\x00"), CODEC_E_OVERRUN,
	  P_SA_QUERY },
	{ "sa query: request ok", B("\x08\x00\x12\x34"), CODEC_OK, P_SA_QUERY },
	{ "sa query: response with an element ok", B("\x08\x01\x12\x34\xff\x01\x36"), CODEC_OK,
	  P_SA_QUERY },
	{ "timeout interval: 4 octets", B("\x03" "\x00\x00\x00"), CODEC_E_BAD_LENGTH, P_TIE },
	{ "timeout interval: 6 octets", B("\x03" Z5), CODEC_E_BAD_LENGTH, P_TIE },
	{ "timeout interval: type 0", B("\x00" Z4), CODEC_E_MALFORMED, P_TIE },
	{ "timeout interval: type 4", B("\x04" Z4), CODEC_E_MALFORMED, P_TIE },
	{ "timeout interval: comeback ok", B("\x03\xe8\x03\x00\x00"), CODEC_OK, P_TIE },
	{ "kde: lone element ID", B("\x30"), CODEC_E_TRUNCATED, P_KDE },
	{ "kde: Key ID of 3 octets", B(KDE_HDR("\x07", "\x0a") "\x01\x00\x00"),
	  CODEC_E_BAD_LENGTH, P_KDE },
	{ "OK kde: GTK then 0xdd padding", B(KDE_HDR("\x16", "\x01") "\x01\x00" Z16 "\xdd\x00"),
	  CODEC_OK, P_KDE },
};

#define N_CASES (sizeof(cases) / sizeof(cases[0]))

static int run_parser(enum parser p, const uint8_t *b, size_t n)
{
	union {
		struct mgmt_frame mgmt;
		struct data_hdr data;
		struct ie_set ies;
		struct ie_fte fte;
		struct kde_set kde;
		struct mmie mmie;
		struct sa_query_frame saq;
		struct ie_timeout_interval tie;
		struct {
			struct eapol_hdr h;
			struct eapol_key k;
		} eapol;
	} out;

	switch (p) {
	case P_MGMT:
		return mgmt_parse(b, n, &out.mgmt);
	case P_DATA:
		return data_hdr_parse(b, n, &out.data);
	case P_IES:
		return ie_parse(b, n, &out.ies);
	case P_FTE16:
		return ie_parse_fte(b, n, 16, &out.fte);
	case P_FTE_AUTO:
		return ie_parse_fte(b, n, 0, &out.fte);
	case P_EAPOL:
		return eapol_parse(b, n, &out.eapol.h);
	case P_EAPOL_KEY16:
		return eapol_key_frame_parse(b, n, 16, &out.eapol.h, &out.eapol.k);
	case P_EAPOL_KEY24:
		return eapol_key_frame_parse(b, n, 24, &out.eapol.h, &out.eapol.k);
	case P_KDE:
		return kde_parse(b, n, &out.kde);
	case P_MMIE:
		return mmie_parse(b, n, &out.mmie);
	case P_MMIE_T8:
		return mmie_parse_trailer(b, n, 8, &out.mmie);
	case P_MMIE_T16:
		return mmie_parse_trailer(b, n, 16, &out.mmie);
	case P_SA_QUERY:
		return sa_query_parse(b, n, &out.saq);
	case P_TIE:
		return ie_parse_timeout_interval(b, n, &out.tie);
	}
	return 1; /* unreachable: a row with an unknown parser fails */
}

START_TEST(test_malformed_row)
{
	const struct bad_case *c = &cases[_i];
	/* An exact-size heap copy: reading one octet too far is an ASan
	 * error instead of a silent read of the next string literal. */
	uint8_t *copy = malloc(c->len ? c->len : 1);

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, c->bytes, c->len);
	int got = run_parser(c->parser, c->len ? copy : NULL, c->len);
	free(copy);
	ck_assert_msg(got == c->expect, "%s: got %d (%s), want %d (%s)", c->name, got,
		      codec_strerror(got), c->expect, codec_strerror(c->expect));
}
END_TEST

START_TEST(test_table_size)
{
	size_t errors = 0;
	unsigned kinds = 0;

	for (size_t i = 0; i < N_CASES; i++) {
		if (cases[i].expect != CODEC_OK)
			errors++;
		kinds |= 1u << -cases[i].expect;
	}
	ck_assert_uint_ge(errors, 50);
	/* every parse-side error kind is exercised at least once */
	for (int e = CODEC_E_TRUNCATED; e >= CODEC_E_UNSUPPORTED; e--)
		ck_assert_msg(kinds & (1u << -e), "no row expects %s", codec_strerror(e));
}
END_TEST

Suite *make_codec_malformed_suite(void)
{
	Suite *s = suite_create("codec_malformed");
	TCase *tc = tcase_create("table");

	tcase_add_loop_test(tc, test_malformed_row, 0, (int)N_CASES);
	tcase_add_test(tc, test_table_size);
	suite_add_tcase(s, tc);
	return s;
}
