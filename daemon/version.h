#ifndef WPAD_VERSION_H
#define WPAD_VERSION_H
#define WPAD_VERSION "0.1.0"
#endif
