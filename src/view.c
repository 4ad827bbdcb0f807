/* view.c -- placeholder: the helper writing the view module replaces this file. */
#include "src/view.h"
