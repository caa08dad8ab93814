#!/bin/bash
printf '#!/bin/sh\necho "Hello, $1!"\n' > /app/greet.sh && chmod +x /app/greet.sh
