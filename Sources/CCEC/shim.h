#ifndef KIOSK_CCEC_SHIM_H
#define KIOSK_CCEC_SHIM_H
#include <fcntl.h>
#include <linux/cec.h>
#include <sys/ioctl.h>

/* CECMessage.maximumLength (Swift) is 16, and CECDevice copies messages into and out of `cec_msg.msg`
   by that count: a header where either differs stops the build here, on whatever architecture. */
_Static_assert(CEC_MAX_MSG_SIZE == 16 && sizeof(((struct cec_msg *)0)->msg) == CEC_MAX_MSG_SIZE,
    "CECMessage.maximumLength (16) must be CEC_MAX_MSG_SIZE, the size of cec_msg.msg");

/* The kernel's HDMI-CEC API (linux/cec.h, /dev/cecN): no C library, only ioctls. ioctl(2) is variadic,
   which Swift cannot call: one typed shim per request, each returning ioctl's result (-1 with errno set on
   failure). */
static inline int kiosk_cec_adap_g_caps(int fd, struct cec_caps *caps) { return ioctl(fd, CEC_ADAP_G_CAPS, caps); }
static inline int kiosk_cec_adap_g_phys_addr(int fd, __u16 *address) { return ioctl(fd, CEC_ADAP_G_PHYS_ADDR, address); }
static inline int kiosk_cec_adap_g_log_addrs(int fd, struct cec_log_addrs *addresses) {
    return ioctl(fd, CEC_ADAP_G_LOG_ADDRS, addresses);
}
static inline int kiosk_cec_adap_s_log_addrs(int fd, struct cec_log_addrs *addresses) {
    return ioctl(fd, CEC_ADAP_S_LOG_ADDRS, addresses);
}
static inline int kiosk_cec_adap_g_connector_info(int fd, struct cec_connector_info *info) {
    return ioctl(fd, CEC_ADAP_G_CONNECTOR_INFO, info);
}
static inline int kiosk_cec_transmit(int fd, struct cec_msg *message) { return ioctl(fd, CEC_TRANSMIT, message); }
static inline int kiosk_cec_receive(int fd, struct cec_msg *message) { return ioctl(fd, CEC_RECEIVE, message); }
static inline int kiosk_cec_dqevent(int fd, struct cec_event *event) { return ioctl(fd, CEC_DQEVENT, event); }
#endif
