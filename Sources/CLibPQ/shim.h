// libpq's header: Debian and Ubuntu (libpq-dev) install it under /usr/include/postgresql,
// other systems (Homebrew, RPM-based distributions with the right -I) at the top level.
#if __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h>
#else
#include <libpq-fe.h>
#endif
